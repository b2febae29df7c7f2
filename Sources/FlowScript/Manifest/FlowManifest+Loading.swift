import FlowStack
import Foundation

extension FlowManifest {
    /// Loads `routes.lua` in a sandboxed VM and reads the table it returns.
    ///
    /// - Throws: `FlowScriptError` with `file:line` for a script error, or with the file name for
    ///   a malformed declaration.
    @MainActor
    public static func load(contentsOf url: URL, displayName: String = "routes.lua") throws(FlowScriptError) -> FlowManifest {
        let source: String
        do {
            source = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw FlowScriptError(kind: .runtime, file: displayName, message: "cannot read the manifest: \(error.localizedDescription)")
        }
        return try parse(source: source, displayName: displayName)
    }

    /// Runs manifest source and reads the table it returns.
    @MainActor
    public static func parse(source: String, displayName: String = "routes.lua") throws(FlowScriptError) -> FlowManifest {
        let vm = try LuaVM()
        defer { vm.close() }
        let values = try vm.run(source: source, chunkName: displayName)
        guard case .table(let table)? = values.first else {
            throw FlowScriptError(kind: .badReturn, file: displayName, message: "the manifest must return a table: return { root = ..., routes = { ... } }")
        }
        func fail(_ message: String) -> FlowScriptError {
            FlowScriptError(kind: .typeError, file: displayName, message: message)
        }
        var manifest = FlowManifest(file: displayName)
        let known: Set<String> = ["root", "routes", "dialogs", "facts", "links"]
        for case .string(let key) in table.fields.keys where !known.contains(key) {
            let hint = FlowSuggestion.closest(to: key, in: known.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
            throw fail("unknown manifest key '\(key)'\(hint); expected root, routes, dialogs, facts, links")
        }
        if case .table(let routes)? = table.fields["routes"] {
            for (key, value) in routes.fields {
                guard case .string(let name) = key else { throw fail("route names must be strings, got \(key)") }
                var spec = RouteSpec()
                if case .table(let body) = value, case .table(let params)? = body.fields["params"] {
                    for (paramKey, typeValue) in params.fields {
                        guard case .string(let param) = paramKey, case .string(let type) = typeValue,
                              parameterTypes.contains(type) else {
                            throw fail("route '\(name)': params must map names to one of \(parameterTypes.joined(separator: ", ")), got \(paramKey) = \(typeValue)")
                        }
                        spec.params[param] = type
                    }
                } else if case .table = value {
                } else {
                    throw fail("route '\(name)' must be declared as a table ({} or { params = { ... } })")
                }
                manifest.routes[name] = spec
            }
            for case .string(let name) in routes.array {
                manifest.routes[name] = RouteSpec()
            }
        } else if table.fields["routes"] != nil {
            throw fail("'routes' must be a table of route declarations")
        }
        if case .table(let dialogs)? = table.fields["dialogs"] {
            for value in dialogs.array {
                guard case .string(let id) = value else { throw fail("dialogs must be a list of ids, got \(value)") }
                manifest.dialogs.append(id)
            }
        }
        if case .table(let facts)? = table.fields["facts"] {
            for (key, value) in facts.fields {
                guard case .string(let name) = key, let converted = FlowScriptValue(value) else {
                    throw fail("facts must map names to default values (boolean, number, string, table), got \(key) = \(value)")
                }
                manifest.facts[name] = converted
            }
        }
        if case .table(let links)? = table.fields["links"] {
            func strings(_ key: String) throws(FlowScriptError) -> [String] {
                guard let value = links.fields[.string(key)] else { return [] }
                guard case .table(let list) = value else { throw fail("links.\(key) must be a list of strings") }
                var result: [String] = []
                for item in list.array {
                    guard case .string(let text) = item else { throw fail("links.\(key) must be a list of strings, got \(item)") }
                    result.append(text)
                }
                return result
            }
            manifest.links = Links(schemes: try strings("schemes"), hosts: try strings("hosts"))
        }
        if let root = table.fields["root"] {
            let route = try FlowRouteValue(lua: root)
            if !manifest.routes.isEmpty, let problem = manifest.problem(with: route) {
                throw fail("root: \(problem)")
            }
            manifest.root = route
        }
        return manifest
    }
}
