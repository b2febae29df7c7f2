import FlowLua
import FlowStackCore
import Foundation

extension FlowManifest {
    /// Loads `routes.lua` in a sandboxed VM and reads the table it returns.
    ///
    /// - Throws: `FlowScriptError` with `file:line` for a script error, or with the file name for
    ///   a malformed declaration, or for a file that is not a regular UTF-8 file (a FIFO, a
    ///   device or a folder is refused at once, never read).
    @MainActor
    public static func load(contentsOf url: URL, displayName: String = "routes.lua") throws(FlowScriptError) -> FlowManifest {
        try parse(source: try source(contentsOf: url, displayName: displayName), displayName: displayName)
    }

    /// The text of a manifest file: a regular file of UTF-8 text, or an error naming it.
    public static func source(contentsOf url: URL, displayName: String = "routes.lua") throws(FlowScriptError) -> String {
        try FlowSourceFile.text(atPath: url.path, displayName: displayName)
    }

    /// Runs manifest source and reads the table it returns.
    @MainActor
    public static func parse(source: String, displayName: String = "routes.lua") throws(FlowScriptError) -> FlowManifest {
        try parse(source: source, displayName: displayName, lenient: false).manifest
    }

    /// Reads a manifest as `flowstack check` does: an unknown top-level key or a bad `root`
    /// is a problem returned next to the manifest (read without its `root`), so that the
    /// names it declares can still be checked. Other mistakes throw.
    @MainActor
    public static func parseReportingProblems(
        source: String, displayName: String = "routes.lua"
    ) throws(FlowScriptError) -> (manifest: FlowManifest, problems: [FlowScriptError]) {
        try parse(source: source, displayName: displayName, lenient: true)
    }

    /// The line of the first `key =` (or `["key"] =`) in `source`, outside comments.
    package static func line(ofKey key: String, in source: String) -> Int? {
        let escaped = NSRegularExpression.escapedPattern(for: key)
        guard let pattern = try? NSRegularExpression(
            pattern: "(^|[^A-Za-z0-9_.])(\\b\(escaped)\\b|\\[\\s*[\"']\(escaped)[\"']\\s*\\])\\s*=[^=]")
        else { return nil }
        for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.range(of: "--").map { String(raw[..<$0.lowerBound]) } ?? String(raw)
            if pattern.firstMatch(in: line + " ", range: NSRange(location: 0, length: (line + " ").utf16.count)) != nil {
                return index + 1
            }
        }
        return nil
    }

    /// The line of the last key of `path` (`["explore", "params", "id"]`): each key searched for
    /// from the line of the one before it.
    package static func line(ofKeys path: [String], in source: String) -> Int? {
        var start = 0
        var found: Int?
        for key in path {
            let rest = source.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(start).joined(separator: "\n")
            guard let line = line(ofKey: key, in: rest) else { return found }
            start += line - 1
            found = start + 1
        }
        return found
    }

    @MainActor
    private static func parse(
        source: String, displayName: String, lenient: Bool
    ) throws(FlowScriptError) -> (manifest: FlowManifest, problems: [FlowScriptError]) {
        let vm = try LuaVM()
        defer { vm.close() }
        let values: [LuaValue]
        do {
            values = try vm.run(source: source, chunkName: displayName)
        } catch {
            // Errors converting what it returned (a table that contains itself) carry no file.
            var located = error
            if located.file == nil { located.file = displayName }
            throw located
        }
        guard case .table(let table)? = values.first else {
            throw FlowScriptError(kind: .badReturn, file: displayName, message: "the manifest must return a table: return { root = ..., routes = { ... } }")
        }
        func fail(_ message: String, at key: String? = nil) -> FlowScriptError {
            FlowScriptError(kind: .typeError, file: displayName, line: key.flatMap { line(ofKey: $0, in: source) }, message: message)
        }
        /// Throws, or in `check` (with `problems`) notes the problem and goes on.
        var problems: [FlowScriptError] = []
        func report(_ error: FlowScriptError) throws(FlowScriptError) {
            guard lenient else { throw error }
            problems.append(error)
        }
        var manifest = FlowManifest(file: displayName)
        let known = FlowLuaSurface.manifestKeys.map(\.name)
        // In the order of the file (then by name), so the first one reported is the first one written.
        let unknownKeys = table.fields.keys.compactMap { key -> String? in
            if case .string(let name) = key, !known.contains(name) { name } else { nil }
        }.sorted { (line(ofKey: $0, in: source) ?? .max, $0) < (line(ofKey: $1, in: source) ?? .max, $1) }
        for key in unknownKeys {
            let hint = FlowSuggestion.closest(to: key, in: known.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
            try report(fail("unknown manifest key '\(key)'\(hint); expected \(known.joined(separator: ", "))", at: key))
        }
        if case .table(let routes)? = table.fields["routes"] {
            for (key, value) in routes.fields {
                guard case .string(let name) = key else { throw fail("route names must be strings, got \(key)", at: "routes") }
                var spec = RouteSpec()
                if case .table(let body) = value {
                    // `param = { ... }` would declare nothing and leave every payload field "unknown".
                    let stray = body.fields.keys.map { key -> String in if case .string(let text) = key { text } else { "\(key)" } }
                        .filter { $0 != "params" && $0 != "opens" }.sorted()
                    for key in stray {
                        let hint = FlowSuggestion.closest(to: key, in: ["params", "opens"]).map { " (did you mean '\($0)'?)" } ?? ""
                        try report(fail("route '\(name)': unknown key '\(key)'\(hint); a route is declared as {} or { params = { field = \"string\", ... }, opens = { \"push\", ... } }", at: key))
                    }
                    if let opens = body.fields["opens"] {
                        let kinds = RouteSpec.openingKinds
                        var listed: [String] = []
                        if case .table(let list) = opens, list.fields.isEmpty, !list.array.isEmpty {
                            for item in list.array {
                                guard case .string(let kind) = item, kinds.contains(kind) else {
                                    let hint: String = if case .string(let kind) = item {
                                        FlowSuggestion.closest(to: kind, in: kinds).map { " (did you mean '\($0)'?)" } ?? ""
                                    } else { "" }
                                    try report(fail("route '\(name)': opens lists the operations that open it, one of \(kinds.joined(separator: ", ")); got \(item)\(hint)", at: "opens"))
                                    continue
                                }
                                if !listed.contains(kind) { listed.append(kind) }
                            }
                            spec.opens = listed
                        } else {
                            try report(fail("route '\(name)': opens must be a list of operations, as opens = { \"sheet\" }; got \(opens.typeName)", at: "opens"))
                        }
                    }
                    if let params = body.fields["params"], params.typeName != "table" {
                        try report(fail("route '\(name)': params must be a table of field types, as params = { id = \"string\" }; got \(params.typeName)", at: "params"))
                    }
                }
                if case .table(let body) = value, case .table(let params)? = body.fields["params"] {
                    for (paramKey, typeValue) in params.fields {
                        guard case .string(let param) = paramKey, case .string(let type) = typeValue,
                              parameterTypes.contains(type) else {
                            // In `check`, the field is reported and left out; the route stays.
                            var hint = ""
                            if case .string(let type) = typeValue {
                                // `bool`, `int`, `str`: a type the name starts, or the nearest.
                                let near = parameterTypes.first { !type.isEmpty && $0.hasPrefix(type) }
                                    ?? FlowSuggestion.closest(to: type, in: parameterTypes)
                                hint = near.map { " (did you mean '\($0)'?)" } ?? ""
                            }
                            let at: String = if case .string(let param) = paramKey { param } else { name }
                            try report(fail("route '\(name)': params must map names to one of \(parameterTypes.joined(separator: ", ")), got \(paramKey) = \(typeValue)\(hint)", at: at))
                            continue
                        }
                        spec.params[param] = type
                    }
                } else if case .table = value {
                } else {
                    // In `check`, reported and kept without payload: names that use it still check.
                    try report(fail("route '\(name)' must be declared as a table ({} or { params = { ... } })", at: name))
                }
                manifest.routes[name] = spec
            }
            for case .string(let name) in routes.array {
                manifest.routes[name] = RouteSpec()
            }
        } else if table.fields["routes"] != nil {
            throw fail("'routes' must be a table of route declarations", at: "routes")
        }
        if case .table(let dialogs)? = table.fields["dialogs"] {
            for value in dialogs.array {
                guard case .string(let id) = value else {
                    try report(fail("dialogs must be a list of ids, got \(value)", at: "dialogs"))
                    continue
                }
                manifest.dialogs.append(id)
            }
        }
        if case .table(let facts)? = table.fields["facts"] {
            for (key, value) in facts.fields {
                guard case .string(let name) = key, let converted = FlowScriptValue(value) else {
                    try report(fail("facts must map names to default values (boolean, number, string, table), got \(key) = \(value)", at: { if case .string(let name) = key { name } else { "facts" } }()))
                    continue
                }
                manifest.facts[name] = converted
            }
        }
        if case .table(let links)? = table.fields["links"] {
            // `scheme = { ... }` would limit nothing: every link would be accepted.
            let stray = links.fields.keys.map { key -> String in if case .string(let text) = key { text } else { "\(key)" } }
                .filter { $0 != "schemes" && $0 != "hosts" }.sorted()
            for key in stray {
                let hint = FlowSuggestion.closest(to: key, in: ["schemes", "hosts"]).map { " (did you mean '\($0)'?)" } ?? ""
                try report(fail("links: unknown key '\(key)'\(hint); links has schemes and hosts, as links = { schemes = { \"myapp\" }, hosts = { \"example.com\" } }", at: key))
            }
            func strings(_ key: String) throws(FlowScriptError) -> [String] {
                guard let value = links.fields[.string(key)] else { return [] }
                guard case .table(let list) = value else { throw fail("links.\(key) must be a list of strings", at: key) }
                var result: [String] = []
                for item in list.array {
                    guard case .string(let text) = item else { throw fail("links.\(key) must be a list of strings, got \(item)", at: key) }
                    result.append(text)
                }
                return result
            }
            manifest.links = Links(schemes: try strings("schemes"), hosts: try strings("hosts"))
        }
        if let explore = table.fields["explore"] {
            manifest.explore = try FlowExploreSection.parse(explore, fail: { message, path in
                FlowScriptError(
                    kind: .typeError, file: displayName, line: line(ofKeys: ["explore"] + path, in: source), message: message)
            })
        }
        if let experiments = table.fields["experiments"] {
            manifest.experiments = try parseExperiments(experiments, fail: { message, path in
                FlowScriptError(
                    kind: .typeError, file: displayName, line: line(ofKeys: ["experiments"] + path, in: source), message: message)
            })
        }
        if let tabs = table.fields["tabs"] {
            manifest.tabs = try parseTabs(tabs, manifest: manifest, fail: { message in fail(message, at: "tabs") }, report: report)
        }
        if let root = table.fields["root"] {
            let route: FlowRouteValue
            do {
                route = try FlowRouteValue(lua: root)
            } catch {
                throw fail("root: \(error.message)", at: "root")
            }
            if !manifest.routes.isEmpty, let problem = manifest.problem(with: route) {
                try report(fail("root: \(problem)", at: "root"))
            } else {
                manifest.root = route
            }
        }
        return (manifest, problems)
    }

    /// Reads `tabs = { { name = "feed", root = "feedHome" }, ... }`: names unique, roots declared
    /// routes (checked with "did you mean").
    private static func parseTabs(
        _ value: LuaValue, manifest: FlowManifest, fail: (String) -> FlowScriptError,
        report: (FlowScriptError) throws(FlowScriptError) -> Void
    ) throws(FlowScriptError) -> [Tab] {
        let shape = "tabs must be a list of { name = \"feed\", root = \"feedHome\" }"
        guard case .table(let list) = value, list.fields.isEmpty, !list.array.isEmpty else {
            throw fail("\(shape), in the order of the tab bar (the first is selected at start)")
        }
        var tabs: [Tab] = []
        for (index, item) in list.array.enumerated() {
            guard case .table(let entry) = item else { throw fail("tab \(index + 1): \(shape)") }
            // A misspelt key first: `rot = "feedHome"` gets "did you mean 'root'", not the shape.
            let label: String = if case .string(let name)? = entry.fields["name"], !name.isEmpty { "tab '\(name)'" } else { "tab \(index + 1)" }
            let unknownKeys = entry.fields.keys.compactMap { key -> String? in
                if case .string(let name) = key, name != "name", name != "root" { name } else { nil }
            }.sorted()
            if let key = unknownKeys.first {
                let hint = FlowSuggestion.closest(to: key, in: ["name", "root"]).map { " (did you mean '\($0)'?)" } ?? ""
                throw fail("\(label): unknown key '\(key)'\(hint); a tab has name and root")
            }
            guard case .string(let name)? = entry.fields["name"], !name.isEmpty, let rootValue = entry.fields["root"] else {
                throw fail("\(label): \(shape)")
            }
            if tabs.contains(where: { $0.name == name }) { throw fail("two tabs are named '\(name)'; every tab needs its own name") }
            let root: FlowRouteValue
            do {
                root = try FlowRouteValue(lua: rootValue)
            } catch {
                throw fail("tab '\(name)': root: \(error.message)")
            }
            if !manifest.routes.isEmpty, let problem = manifest.problem(with: root) {
                try report(fail("tab '\(name)': root: \(problem)"))
            }
            tabs.append(Tab(name: name, root: root))
        }
        return tabs
    }
}
