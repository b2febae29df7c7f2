import FlowLua
import FlowStackCore
import Foundation

extension FlowRulesEngine {
    /// Builds a fresh VM with the prelude, facts, host functions and every rules file.
    func buildRuleSet(from sources: [FlowRulesSource], generation: Int) throws(FlowScriptError) -> FlowRuleSet {
        let vm = try LuaVM(configuration: .init(memoryBudget: configuration.memoryBudget, instructionBudget: configuration.instructionBudget))
        let set = FlowRuleSet(vm: vm, generation: generation, hasExperiments: configuration.manifest?.experiments.isEmpty == false)
        // Counted from the load on: the functions the rules' top level calls ran.
        vm.coverage = coverageCounts
        do {
            try loadRuleSet(set, sources: sources)
        } catch {
            vm.close()
            throw error
        }
        return set
    }

    private func loadRuleSet(_ set: FlowRuleSet, sources: [FlowRulesSource]) throws(FlowScriptError) {
        let vm = set.vm
        vm.printSink = { [unowned self] line in self.printed(line) }
        try registerNative(in: set)
        let prelude: LuaFunctionRef
        if let compiled = FlowRulesPrelude.compiled {
            prelude = try vm.loadTrusted(binary: compiled, chunkName: FlowRulesPrelude.chunkName)
        } else {
            prelude = try vm.load(source: try FlowRulesPrelude.source, chunkName: FlowRulesPrelude.chunkName)
            FlowRulesPrelude.compiled = vm.dump(prelude)
        }
        let entryPoints = try vm.call(prelude, []).first ?? .nil
        set.decideFunction = try Self.preludeEntry("decide", in: entryPoints)
        guard set.decisionArguments != nil else {
            throw FlowScriptError(kind: .badReturn, file: FlowRulesPrelude.chunkName, message: "the rules prelude's decide is not the native decider")
        }
        set.styleFunction = try Self.preludeEntry("style", in: entryPoints)
        set.runningWhereFunction = try Self.preludeEntry("runningWhere", in: entryPoints)
        set.dialogFunction = try Self.preludeEntry("decideDialog", in: entryPoints)
        set.factsFunction = try Self.preludeEntry("factsChanged", in: entryPoints)
        let finish = try Self.preludeEntry("finishLoading", in: entryPoints)
        try installFacts(in: vm)
        try vm.installReadOnlyTable(
            at: "experiments", contents: LuaTable(), missingKeyFunction: try Self.preludeEntry("readExperiment", in: entryPoints),
            instead: "rules read experiments, the app assigns them (engine.setExperimentUnit, overrideExperiment)")
        _ = try vm.run(source: "host = setmetatable({}, { __index = function(_, name) error(\"no host function '\" .. tostring(name) .. \"' is registered; the app registers it with registerHost\", 2) end })", chunkName: FlowRulesPrelude.chunkName)
        for (name, host) in hosts { try install(host, named: name, in: vm) }
        try vm.recordGlobalDeclarations()
        var compiled: [String: FlowCompiledSource] = [:]
        for source in sources {
            let chunk: LuaFunctionRef
            if let cached = compiledSources[source.name], cached.text == source.text {
                chunk = try vm.loadTrusted(binary: cached.binary, chunkName: source.name)
                compiled[source.name] = cached
            } else {
                chunk = try vm.load(source: source.text, chunkName: source.name)
                if let binary = vm.dump(chunk) { compiled[source.name] = FlowCompiledSource(text: source.text, binary: binary) }
            }
            _ = try vm.call(chunk, [])
        }
        // Only the files of the last successful compile are kept (a reload that changes one file
        // compiles that file only).
        compiledSources = compiled
        let summary = try vm.call(finish, []).first ?? .nil
        for case .string(let kind) in summary["preconditionKinds"].tableValue?.array ?? [] {
            if kind == "*" { set.hasStarPrecondition = true } else { set.preconditionKinds.insert(kind) }
        }
        for case .string(let name) in summary["guardNames"].tableValue?.array ?? [] { set.guardNames.insert(name) }
        for hook in [FlowStyleHook.screen, .stack, .modal] {
            if case .integer(let count) = summary["styleCounts"][hook.rawValue] { set.styleCounts[hook] = count }
        }
        for case .string(let name) in summary["dialogGuardNames"].tableValue?.array ?? [] { set.dialogGuardNames.insert(name) }
        if case .integer(let count) = summary["factsHandlerCount"] { set.factsHandlerCount = count }
        for case .string(let name) in summary["audienceNames"].tableValue?.array ?? [] { set.audienceNames.insert(name) }
        experimentState.forgetEligibility()
        try vm.lockGlobals()
        for diagnostic in set.links.diagnostics {
            note(FlowScriptDiagnostic(
                severity: .warning, file: diagnostic.location?.file, line: diagnostic.location?.line,
                message: diagnostic.message
            ))
        }
    }

    /// The function the rules prelude returned under `name` in its table of entry points.
    private static func preludeEntry(_ name: String, in entryPoints: LuaValue) throws(FlowScriptError) -> LuaFunctionRef {
        guard let function = entryPoints[name].functionValue else {
            throw FlowScriptError(
                kind: .badReturn, file: FlowRulesPrelude.chunkName, message: "the rules prelude returned no function '\(name)' in its table of entry points")
        }
        return function
    }

    /// The Swift helpers the prelude takes from `__flow_native`.
    private func registerNative(in set: FlowRuleSet) throws(FlowScriptError) {
        let vm = set.vm
        try vm.register("__flow_native.suggest", returning: { arguments in
            let word = try arguments.string(at: 1)
            guard case .table(let list) = try arguments.value(at: 2) else { return [.nil] }
            let candidates = list.array.compactMap { value -> String? in
                if case .string(let text) = value { return text } else { return nil }
            }
            return [FlowSuggestion.closest(to: word, in: candidates).map(LuaValue.string) ?? .nil]
        })
        try vm.register("__flow_native.routeProblem", returning: { [unowned self] arguments in
            let route = try FlowRouteValue(lua: try arguments.value(at: 1))
            guard let manifest = self.configuration.manifest, !manifest.routes.isEmpty else { return [.nil] }
            if case .string = try arguments.value(at: 1) {
                guard manifest.routes[route.name] == nil else { return [.nil] }
            }
            return [manifest.problem(with: route).map(LuaValue.string) ?? .nil]
        })
        try registerDialogNative(in: vm)
        try registerExperimentNative(in: vm)
        // Tabs: tabProblem(name) checks a selectTab target against the manifest's tabs.
        try vm.register("__flow_native.tabProblem", returning: { [unowned self] arguments in
            guard let manifest = self.configuration.manifest, !manifest.tabs.isEmpty else { return [.nil] }
            return [manifest.problem(withTab: try arguments.string(at: 1)).map(LuaValue.string) ?? .nil]
        })
        try vm.installNativeFunction(.sourceOf, at: "__flow_native.sourceOf")
        try vm.register("__flow_native.expandName", returning: { [unowned vm] arguments in
            [.string(vm.expandChunkName(try arguments.string(at: 1)))]
        })
        try vm.register("__flow_native.stackInfo") { [unowned self] arguments, writer in
            guard let stacks = self.stacks(ofSnapshot: try arguments.integer(at: 1)) else { return 0 }
            // stackInfo(snap, stack, lengthOnly): the stack's number of screens, or its id and
            // presentation (see clua_stacks.c).
            let index = try arguments.integer(at: 2)
            if arguments.count >= 3, arguments.isTruthy(at: 3) {
                guard let screens = stacks.screens(index) else { return 0 }
                writer.push(screens)
                return 1
            }
            guard let info = stacks.info(index) else { return 0 }
            writer.push(info.id)
            writer.push(info.presentation)
            return 2
        }
        try vm.register("__flow_native.routeAt") { [unowned self] arguments, writer in
            guard let stacks = self.stacks(ofSnapshot: try arguments.integer(at: 1)) else { return 0 }
            guard let route = stacks.route(stack: try arguments.integer(at: 2), position: try arguments.integer(at: 3)) else { return 0 }
            Self.push(route, on: writer)
            return 1
        }
        try vm.setGlobal("__flow_native.kinds", .table(LuaTable(array: FlowRuleKind.allCases.map { LuaValue.string($0.rawValue) })))
        try vm.setGlobal("__flow_native.sources", .table(LuaTable(array: FlowRulesPrelude.sources.map { LuaValue.string($0.rawValue) })))
        try vm.installNativeFunction(.decider, at: "__flow_native.decider")
        try vm.installNativeFunction(.freeze, at: "__flow_native.freeze")
        try vm.installNativeFunction(.stackKit, at: "__flow_native.stackKit")
        try vm.register("__flow_native.deeplink", returning: { [unowned set, unowned vm] arguments in
            let pattern = try arguments.string(at: 1)
            let function = try arguments.function(at: 2)
            let location = vm.definitionLocation(of: function)
            do {
                try set.links.add(pattern, function, file: location?.file, line: location?.line)
            } catch {
                return [.string(String(describing: error))]
            }
            return [.nil]
        })
    }

    private func printed(_ line: String) {
        configuration.logger.info("\(line)", metadata: ["source": "print"])
        onPrint?(line)
    }
}

/// A rules file compiled by an earlier load: reloading an unchanged file loads its binary form
/// (produced in this process, debug information kept) instead of compiling the text again.
struct FlowCompiledSource {
    package let text: String
    let binary: [UInt8]
}
