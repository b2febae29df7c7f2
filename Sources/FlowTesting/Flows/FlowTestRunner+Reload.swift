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
                        sources.append(FlowRulesSource(name: name, text: text))
                        sources.sort { $0.name < $1.name }
                    }
                }
            }
            if self.rulesBeforeReload == nil { self.rulesBeforeReload = engine.sources }
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

    /// Brings the rules of before the test back after a test that reloaded them.
    func restoreRules() {
        guard let engine, let rules = rulesBeforeReload else { return }
        rulesBeforeReload = nil
        engine.reload(sources: rules)
    }
}
