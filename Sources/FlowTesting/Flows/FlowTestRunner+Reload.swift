import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// `app.reload` and `app.generation`: hot-reloading the rules from a flow.
extension FlowTestRunner {
    /// Registers `app.reload([files])` and `app.generation()`.
    ///
    /// `app.reload()` reloads the rules as they are; `app.reload{ ["rules/20-paywall.lua"] =
    /// "new text" }` replaces (or adds) files first. It returns the new generation, or `nil`
    /// and the load error (the previous rules stay in force). After the test, the project's
    /// rules come back.
    func registerReload(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("app.reload", returning: { [unowned self] arguments in
            guard let engine = self.engine else { return [.nil, .string("the rules did not load")] }
            var sources = engine.sources
            if !arguments.isNil(at: 1) {
                let files = try arguments.table(at: 1)
                guard files.array.isEmpty else {
                    throw FlowScriptError(
                        kind: .typeError,
                        message: "app.reload: files need names, as in app.reload{ [\"rules/paywall.lua\"] = \"...\" }")
                }
                for (key, value) in files.fields.sorted(by: { $0.key < $1.key }) {
                    guard case .string(let name) = key, case .string(let text) = value else {
                        throw FlowScriptError(
                            kind: .typeError, message: "app.reload: file \(key) must be a name and the Lua text, got \(value.typeName)")
                    }
                    if let index = sources.firstIndex(where: { $0.name == name }) {
                        sources[index].text = text
                    } else {
                        try Self.checkNewRulesFile(name, among: engine.sources)
                        sources.append(FlowRulesSource(name: name, text: text))
                        sources.sort { $0.name < $1.name }
                    }
                }
            }
            if self.rulesBeforeReload == nil { self.rulesBeforeReload = (engine.sources, engine.generation) }
            self.registerScannedHosts(sources)
            switch engine.reload(sources: sources) {
            case .loaded(let generation):
                _ = try self.currentRouter()
                return [.integer(generation)]
            case .failed(let error, _):
                return [.nil, .string(error.description)]
            }
        })
        try vm.register("app.generation", returning: { [unowned self] _ in
            [.integer(self.engine?.generation ?? 0)]
        })
    }

    /// A file `app.reload` adds must be a `.lua` file in a folder of the rules (`rules/x.lua`):
    /// a name without the folder would add a second copy of a rule beside the one it meant to
    /// replace.
    static func checkNewRulesFile(_ name: String, among sources: [FlowRulesSource]) throws(FlowScriptError) {
        let existing = sources.map(\.name)
        let listed = existing.isEmpty ? "" : " (the rules files: \(existing.joined(separator: ", ")))"
        guard name.hasSuffix(".lua") else {
            throw FlowScriptError(
                kind: .typeError,
                message: "app.reload: file '\(name)' is not a Lua file: name a rules file, as in app.reload{ [\"rules/x.lua\"] = \"...\" }\(listed)")
        }
        func folder(_ path: String) -> Substring { path.lastIndex(of: "/").map { path[..<$0] } ?? "" }
        let folders = Set(existing.map(folder))
        guard !folders.isEmpty, !folders.contains(folder(name)) else { return }
        let file = name.split(separator: "/").last.map(String.init) ?? name
        let suggestion = existing.first { $0.hasSuffix("/" + file) }
            ?? folders.sorted().first.map { "\($0)/\(file)" } ?? file
        throw FlowScriptError(
            kind: .typeError,
            message: "app.reload: file '\(name)' is not in the rules folder (did you mean '\(suggestion)'?); "
                + "name a rules file to replace it, or a new file in their folder to add one\(listed)")
    }

    /// Brings the rules of before the test back after a test that reloaded them, with their
    /// generation: every test starts from the same rules and the same `app.generation()`,
    /// whatever the tests before it reloaded (and in whatever order `--shuffle` ran them).
    func restoreRules() {
        guard let engine, let before = rulesBeforeReload else { return }
        rulesBeforeReload = nil
        guard engine.generation != before.generation || engine.sources != before.sources else { return }
        engine.reload(sources: before.sources, bundle: nil, restoringGeneration: before.generation)
    }
}
