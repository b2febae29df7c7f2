import FlowLua
import FlowScript
import FlowStackCore
import Foundation

extension FlowTestRunner {
    /// `app.reset`, `app.facts`, `app.host`, `app.calls`, `app.scriptErrors`, `app.reload`,
    /// `app.generation`, `app.wait` and `app.advance`.
    func registerApp(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("app.reset", returning: { [unowned self] arguments in
            try self.reset(options: arguments.isNil(at: 1) ? nil : try arguments.table(at: 1))
            return []
        })
        // Adaptive: in a test (run as a coroutine) it waits for the automatic resume of a
        // navigation held from an async one; in a hook run synchronously it does not.
        try vm.registerAdaptive("app.facts", sync: { [unowned self] arguments, _ in
            _ = try self.setFlowFacts(try arguments.value(at: 1))
            return 0
        }, async: { [unowned self] arguments in
            // A navigation held from an async one resumes in its turn of the async queue: the
            // flow goes on once it ran, as the app shows it a moment later.
            if let resume = try self.setFlowFacts(arguments.first ?? .nil) { await resume.value }
            return []
        })
        try vm.register("app.experiments", returning: { [unowned self] arguments in
            let choices = try self.experimentChoices(try arguments.value(at: 1), function: "app.experiments")
            try self.setFlowExperiments(choices)
            self.recordingSetup?.append(.experiments(choices))
            return []
        })
        try vm.register("app.exposures", returning: { [unowned self] _ in
            [.table(LuaTable(array: self.exposures.map { exposure in
                var table = LuaTable()
                table["experiment"] = .string(exposure.experiment)
                table["variant"] = .string(exposure.variant)
                if let unit = exposure.unit { table["unit"] = .string(unit) }
                if let route = exposure.route { table["route"] = .string(route) }
                table["kind"] = .string(exposure.kind)
                return .table(table)
            }))]
        })
        try registerHostStubs(in: vm)
        try vm.register("app.scriptErrors", returning: { [unowned self] _ in
            // The errors so far, taken: a test that expects them checks them, and --strict
            // does not count them against it.
            self.harvestSteps()
            let errors = self.scriptErrors
            self.scriptErrors.removeAll()
            return [.table(LuaTable(array: errors.map { .string($0.location.isEmpty ? $0.message : "\($0.location): \($0.message)") }))]
        })
        try registerReload(in: vm)
        try registerClock(in: vm)
    }

    /// `app.reset{ root, tab, facts, experiments, unit }`: a fresh router, as at the start of a
    /// test, with the options given.
    private func reset(options: LuaTable?) throws(FlowScriptError) {
        var root: Route?
        var tab: String?
        var facts: [String: FlowScriptValue] = [:]
        var experiments = FlowExperimentChoices()
        if let options {
            let known = ["root", "facts", "tab", "experiments", "unit"]
            for key in options.fields.keys {
                guard case .string(let name) = key, known.contains(name) else {
                    let hint = FlowSuggestion.closest(to: key.description, in: known).map { " (did you mean '\($0)'?)" } ?? ""
                    throw FlowScriptError(
                        kind: .typeError, message: "app.reset: unknown option \(key)\(hint); options are root, facts, tab, experiments and unit")
                }
            }
            switch options["unit"] {
            case .nil: break
            case .string(let unit): experiments.unit = unit
            default: throw FlowScriptError(kind: .typeError, message: "app.reset: unit must be a string (the experiment unit id), got \(options["unit"].typeName)")
            }
            experiments.variants = try experimentChoices(options["experiments"], function: "app.reset")
            if options["root"] != .nil { root = try route(options["root"], function: "app.reset", position: 1) }
            switch options["tab"] {
            case .nil: break
            case .string(let name): tab = name
            default: throw FlowScriptError(kind: .typeError, message: "app.reset: tab must be a tab's name, got \(options["tab"].typeName)")
            }
            facts = try Self.facts(options["facts"], function: "app.reset")
        }
        try resetState(root: root, tab: tab, facts: facts, experiments: experiments)
        recordingSetup?.append(.reset(root: root, tab: tab, facts: facts, experiments: experiments))
    }

    /// `app.host(name, fn)`, which stubs a host function, and `app.calls(name)`, the calls it got.
    private func registerHostStubs(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("app.host", returning: { [unowned self] arguments in
            let name = try arguments.string(at: 1)
            let stub = try arguments.function(at: 2)
            self.stubs[name] = stub
            self.registerStubHost(name)
            return []
        })
        try vm.register("app.calls", returning: { [unowned self] arguments in
            let name = try arguments.string(at: 1)
            if !self.stubbedHosts.contains(name) {
                let known = self.stubbedHosts.sorted()
                let hint = FlowSuggestion.closest(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
                throw FlowScriptError(
                    kind: .typeError,
                    message: "app.calls: the rules never call host.\(name)\(hint); hosts: \(known.joined(separator: ", "))")
            }
            let calls = self.hostCalls[name] ?? []
            return [.table(LuaTable(array: calls.map { call in
                .table(LuaTable(array: call.map { $0?.luaValue ?? .nil }))
            }))]
        })
    }

    /// `app.wait(seconds)` and `app.advance(seconds)`: the flows' virtual clock.
    private func registerClock(in vm: LuaVM) throws(FlowScriptError) {
        try vm.registerAsync("app.wait") { [unowned self] arguments in
            self.clock.addTimeInterval(try Self.seconds(arguments.first ?? .nil, function: "app.wait"))
            await Task.yield()
            return []
        }
        try vm.register("app.advance", returning: { [unowned self] arguments in
            self.clock.addTimeInterval(try Self.seconds(try arguments.value(at: 1), function: "app.advance"))
            return []
        })
    }

    /// `app.facts{...}`: sets the facts; returns the automatic resume this change started, if any.
    private func setFlowFacts(_ value: LuaValue) throws(FlowScriptError) -> Task<Void, Never>? {
        let changes = try Self.facts(value, function: "app.facts")
        guard let engine else { return nil }
        let router = try currentRouter()
        let before = router.automaticResume
        try engine.setFacts(changes.mapValues { Optional($0) })
        try refreshFlowFacts()
        recordingSetup?.append(.facts(changes))
        guard let resume = router.automaticResume, resume != before else { return nil }
        return resume
    }

    /// Forces the experiments' variants (`nil`: not enrolled); the engine checks the names.
    func setFlowExperiments(_ choices: [String: String?]) throws(FlowScriptError) {
        guard let engine else { return }
        for (name, variant) in choices.sorted(by: { $0.key < $1.key }) {
            try engine.overrideExperiment(name, variant: variant)
        }
    }

    /// The variants given to `app.reset{ experiments = ... }` or `app.experiments{ ... }`:
    /// experiment → variant name, `"none"` for not enrolled.
    func experimentChoices(_ value: LuaValue, function: String) throws(FlowScriptError) -> [String: String?] {
        let shape = "as in { paywallStyle = \"annualFirst\" } (\"none\": not enrolled)"
        switch value {
        case .nil: return [:]
        case .table(let table):
            guard table.array.isEmpty else { throw FlowScriptError(kind: .typeError, message: "\(function): experiments need names, \(shape)") }
            var choices: [String: String?] = [:]
            for (key, field) in table.fields {
                guard case .string(let name) = key, case .string(let variant) = field else {
                    throw FlowScriptError(kind: .typeError, message: "\(function): experiment \(key) must be set to a variant's name, \(shape); got \(field.typeName)")
                }
                choices[name] = variant == FlowExperiment.notEnrolled ? .some(nil) : .some(variant)
            }
            return choices
        default:
            throw FlowScriptError(kind: .typeError, message: "\(function): experiments must be a table, \(shape); got \(value.typeName)")
        }
    }

    /// Facts given to `app.reset` or `app.facts`.
    static func facts(_ value: LuaValue, function: String) throws(FlowScriptError) -> [String: FlowScriptValue] {
        switch value {
        case .nil: return [:]
        case .table(let table):
            guard table.array.isEmpty else {
                throw FlowScriptError(kind: .typeError, message: "\(function): facts need names, as in { isLoggedIn = true }")
            }
            var facts: [String: FlowScriptValue] = [:]
            for (key, field) in table.fields {
                guard case .string(let name) = key, let converted = FlowScriptValue(field) else {
                    throw FlowScriptError(
                        kind: .typeError,
                        message: "\(function): fact \(key) must be a boolean, number, string or table of those, got \(field.typeName)")
                }
                facts[name] = converted
            }
            return facts
        default:
            throw FlowScriptError(kind: .typeError, message: "\(function): facts must be a table, as in { isLoggedIn = true }, got \(value.typeName)")
        }
    }

    /// A non-negative number of seconds.
    static func seconds(_ value: LuaValue, function: String) throws(FlowScriptError) -> TimeInterval {
        guard let seconds = value.doubleValue, seconds >= 0, seconds.isFinite else {
            throw FlowScriptError(kind: .typeError, message: "bad argument #1 to '\(function)' (seconds, a number >= 0, expected, got \(value))")
        }
        return seconds
    }

    /// Installs the read-only `facts` table flows may read.
    func installFacts(in vm: LuaVM) throws(FlowScriptError) {
        let manifest = self.manifest
        try vm.installReadOnlyTable(at: "facts", contents: factsTable, onMissingKey: { name in
            guard let name, let manifest, !manifest.facts.isEmpty, let problem = manifest.problem(withFact: name) else { return .success(nil) }
            return .failure(FlowScriptError(kind: .undeclaredGlobal, message: problem))
        }, instead: "a flow sets facts with app.facts{ name = value }")
    }

    /// Updates the flow's `facts` table after a change.
    func refreshFlowFacts() throws(FlowScriptError) {
        guard let vm, !vm.isClosed else { return }
        try vm.replaceReadOnlyContents(at: "facts", with: factsTable)
    }

    private var factsTable: LuaTable {
        let facts = engine?.currentFacts ?? [:]
        return LuaTable(fields: Dictionary(uniqueKeysWithValues: facts.map { (LuaTableKey.string($0.key), $0.value.luaValue) }))
    }

    /// Notes a host call's arguments for `app.calls` (trailing `nil`s dropped).
    private func recordCall(_ name: String, _ arguments: [FlowScriptValue?]) {
        var arguments = arguments
        while let last = arguments.last, last == nil { arguments.removeLast() }
        hostCalls[name, default: []].append(arguments)
    }

    /// Registers a stub host for every `host.<name>` the rules mention and the engine does not
    /// have yet, so that a rule calling one the test did not stub fails with a message that says
    /// how to stub it.
    func registerScannedHosts(_ sources: [FlowRulesSource]? = nil) {
        let existing = Set(engine?.hostFunctionNames ?? []).subtracting(stubbedHosts)
        for source in sources ?? project.rules {
            for name in Self.hostCalls(in: source.text) where !existing.contains(name) {
                registerStubHost(name)
            }
        }
    }

    /// The names of `host . name` in `text` (spaces allowed around the dot), read byte by byte:
    /// linear, where a regular expression costs several times more on a large rules file.
    static func hostCalls(in text: String) -> [String] {
        var text = text
        return text.withUTF8 { bytes -> [String] in
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
            func isNameStart(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x5F }
            func isNameByte(_ byte: UInt8) -> Bool { isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) }
            let host: [UInt8] = Array("host".utf8)
            var names: [String] = []
            var index = 0
            while index + 4 < bytes.count {
                guard bytes[index] == host[0], bytes[index + 1] == host[1], bytes[index + 2] == host[2], bytes[index + 3] == host[3]
                else { index += 1; continue }
                var cursor = index + 4
                while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") else { index += 4; continue }
                cursor += 1
                while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < bytes.count, isNameStart(bytes[cursor]) else { index += 4; continue }
                let start = cursor
                while cursor < bytes.count, isNameByte(bytes[cursor]) { cursor += 1 }
                names.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self))
                index = cursor
            }
            return names
        }
    }

    /// Registers `host.<name>` on the engine as a call to the running test's stub: synchronous
    /// in synchronous navigations, asynchronous (a stub may `app.wait`) in async ones.
    func registerStubHost(_ name: String) {
        guard let engine, stubbedHosts.insert(name).inserted else { return }
        engine.registerAdaptiveHost(name, sync: { [weak self] arguments in
            guard let self else { throw Self.notStubbed(name) }
            return try self.callStub(name, arguments)
        }, async: { [weak self] arguments in
            guard let self else { throw Self.notStubbed(name) }
            return try await self.callStubAsync(name, arguments)
        })
    }

    private static func notStubbed(_ name: String) -> FlowScriptError {
        FlowScriptError(
            kind: .host,
            message: "host.\(name) is not stubbed in this test: call app.host(\"\(name)\", function(...) return ... end) "
                + "(or a spy(fn), which records the calls) in the test or its before_each")
    }

    private func stub(_ name: String) throws(FlowScriptError) -> (LuaVM, LuaFunctionRef) {
        guard let vm, !vm.isClosed, let stub = stubs[name] else { throw Self.notStubbed(name) }
        return (vm, stub)
    }

    private func callStub(_ name: String, _ arguments: [FlowScriptValue?]) throws(FlowScriptError) -> [FlowScriptValue?] {
        recordCall(name, arguments)
        let (vm, stub) = try stub(name)
        do {
            return try vm.call(stub, arguments.map { $0?.luaValue ?? .nil }).map { FlowScriptValue($0) }
        } catch where error.kind == .asyncHostInSyncCall {
            throw FlowScriptError(
                kind: .asyncHostInSyncCall,
                message: "host.\(name) is asynchronous: call it from an async navigation (pushAsync, sheetAsync, ...)")
        }
    }

    private func callStubAsync(_ name: String, _ arguments: [FlowScriptValue?]) async throws(FlowScriptError) -> [FlowScriptValue?] {
        recordCall(name, arguments)
        let (vm, stub) = try stub(name)
        return try await vm.callAsync(stub, arguments.map { $0?.luaValue ?? .nil }).map { FlowScriptValue($0) }
    }
}
