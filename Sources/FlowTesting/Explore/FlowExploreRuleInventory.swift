import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// The decision rules a rules directory registers (guards, preconditions, dialog guards), each
/// by the `file:line` where its function starts: what `dead-rule` findings are measured against.
enum FlowExploreRuleInventory {
    /// Runs the rules files in a VM of their own whose `flow` only notes registrations.
    @MainActor
    static func rules(in sources: [FlowRulesSource], manifest: FlowManifest) throws(FlowScriptError) -> [String: String] {
        let vm = try LuaVM()
        defer { vm.close() }
        var rules: [String: String] = [:]
        try vm.register("__explore_note", returning: { arguments in
            let what = try arguments.string(at: 1)
            let function = try arguments.function(at: 2)
            if let (file, line) = vm.definitionLocation(of: function) {
                let location = "\(file):\(line)"
                if rules[location] == nil { rules[location] = what }
            }
            return []
        })
        _ = try vm.run(source: """
            local note = __explore_note
            __explore_note = nil
            local function ignore() end
            local function value() return {} end
            flow = {
              guard = function(name, fn) if type(fn) == "function" then note("flow.guard \\"" .. tostring(name) .. "\\"", fn) end end,
              precondition = function(kind, fn) if type(fn) == "function" then note("flow.precondition \\"" .. tostring(kind) .. "\\"", fn) end end,
              dialog_guard = function(name, fn) if type(fn) == "function" then note("flow.dialog_guard \\"" .. tostring(name) .. "\\"", fn) end end,
              style = { screen = ignore, stack = ignore, modal = ignore },
              deeplink = ignore, redirect = value, op = value,
            }
            local anything = setmetatable({}, { __index = function() return nil end })
            facts, host = anything, anything
            """, chunkName: "=explore")
        for source in sources {
            // A file that fails here loaded in the engine (which reported nothing): its
            // registrations before the failure are still noted.
            _ = try? vm.run(source: source.text, chunkName: source.name)
        }
        return rules
    }

    /// The `file:line` of a failure's reason: the first one a Lua error names
    /// (`rules/a.lua:12: ...`), else the first one mentioned (`deep link '/x' (rules/a.lua:3) ...`).
    static func location(in reason: String) -> String? {
        // Most reasons name no file: a plain search first, the patterns only when they may match.
        guard reason.contains(".lua:") else { return nil }
        guard let match = reason.firstMatch(of: #/([A-Za-z0-9_.\/\-]+\.lua):(\d+): /#)
            ?? reason.firstMatch(of: /([A-Za-z0-9_.\/\-]+\.lua):(\d+)/) else { return nil }
        return "\(match.output.1):\(match.output.2)"
    }
}
