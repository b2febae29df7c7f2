import FlowLua
import FlowStackCore
import Foundation

/// The Swift helpers the flow prelude takes from `__flow_native`.
extension FlowTestRunner {
    func installNative(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("__flow_native.suggest", returning: { arguments in
            let word = try arguments.string(at: 1)
            let candidates = try arguments.table(at: 2).array.compactMap(\.stringValue)
            return [FlowSuggestion.closest(to: word, in: candidates).map(LuaValue.string) ?? .nil]
        })
        try vm.register("__flow_native.where", returning: { [weak vm] arguments in
            let function = try arguments.function(at: 1)
            guard let location = vm?.definitionLocation(of: function) else { return [.string("?")] }
            return [.string("\(location.file):\(location.line)")]
        })
        try vm.register("__flow_native.format") { arguments, writer in
            writer.push(Self.format(arguments, at: 1))
            return 1
        }
        try vm.register("__flow_native.failed", returning: { [unowned self] arguments in
            self.pendingExpectation = (
                message: try arguments.string(at: 1),
                expected: try arguments.optionalString(at: 2),
                actual: try arguments.optionalString(at: 3),
                location: try arguments.optionalString(at: 4),
                traceback: (try arguments.optionalString(at: 5)).map(Self.lines) ?? [],
                diff: (try arguments.optionalString(at: 6)).map(Self.lines) ?? []
            )
            return []
        })
        try vm.register("__flow_native.cleared", returning: { [unowned self] _ in
            self.pendingExpectation = nil
            return []
        })
        try vm.setGlobal("__flow_native.matchers", .table(LuaTable(array: FlowTestPrelude.matchers.map(LuaValue.string))))
        try vm.installNativeFunction(.deepEqual, at: "__flow_native.deepEqual")
        try vm.register("__flow_native.getTimeout", returning: { [unowned self] _ in
            [.number(try self.currentRouter().pendingLinkTimeout)]
        })
        try vm.register("__flow_native.setTimeout", returning: { [unowned self] arguments in
            try self.currentRouter().pendingLinkTimeout = try Self.seconds(try arguments.value(at: 1), function: "router.pendingLinkTimeout")
            return []
        })
    }

    /// Non-empty lines of a text.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    /// The value at `position` as Lua source; tables that cannot be converted are described.
    static func format(_ arguments: LuaArguments, at position: Int) -> String {
        do {
            return Self.shortened(Self.source(try arguments.value(at: position)))
        } catch {
            return "<\(arguments.type(at: position).name): \(error.message)>"
        }
    }

    /// A value as Lua source, with a table's `name` (a route's) and `id` (a dialog's) first.
    static func source(_ value: LuaValue) -> String {
        guard case .table(let table) = value, !table.isEmpty else { return value.description }
        var parts = table.array.map(source)
        let leading: [LuaTableKey] = ["name", "id"]
        for key in leading where table.fields[key] != nil {
            parts.append("\(key) = \(source(table.fields[key]!))")
        }
        for key in table.fields.keys.sorted() where !leading.contains(key) {
            parts.append("\(key) = \(source(table.fields[key]!))")
        }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    /// Long values cut to a readable length.
    static func shortened(_ text: String) -> String {
        text.count > 2_000 ? String(text.prefix(2_000)) + " …" : text
    }
}
