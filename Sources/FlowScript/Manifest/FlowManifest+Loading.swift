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
    package static func source(contentsOf url: URL, displayName: String = "routes.lua") throws(FlowScriptError) -> String {
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
    package static func parseReportingProblems(
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
        var reader = ManifestReader(source: source, displayName: displayName, lenient: lenient)
        try reader.read(table)
        return (reader.manifest, reader.problems)
    }
    /// Reads `tabs = { { name = "feed", root = "feedHome" }, ... }`: names unique, roots declared
    /// routes (checked with "did you mean").
    fileprivate static func parseTabs(
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

/// Reads the table `routes.lua` returned, key by key, into a manifest: each mistake with the
/// line of its key; in `check` (`lenient`) the mistakes it can go on after are noted and read on.
private struct ManifestReader {
    let source: String
    let displayName: String
    let lenient: Bool
    var manifest: FlowManifest
    /// What `check` notes instead of throwing.
    var problems: [FlowScriptError] = []

    init(source: String, displayName: String, lenient: Bool) {
        self.source = source
        self.displayName = displayName
        self.lenient = lenient
        manifest = FlowManifest(file: displayName)
    }

    /// Reads every key of the manifest's table.
    mutating func read(_ table: LuaTable) throws(FlowScriptError) {
        try unknownKeys(of: table)
        if case .table(let routes)? = table.fields["routes"] {
            try read(routes: routes)
        } else if table.fields["routes"] != nil {
            throw fail("'routes' must be a table of route declarations", at: "routes")
        }
        if case .table(let dialogs)? = table.fields["dialogs"] { try read(dialogs: dialogs) }
        if case .table(let facts)? = table.fields["facts"] { try read(facts: facts) }
        if case .table(let links)? = table.fields["links"] { try read(links: links) }
        if let explore = table.fields["explore"] {
            manifest.explore = try FlowExploreSection.parse(explore, fail: sectionError("explore"))
        }
        if let experiments = table.fields["experiments"] {
            manifest.experiments = try FlowManifest.parseExperiments(experiments, fail: sectionError("experiments"))
        }
        if let tabs = table.fields["tabs"] {
            var noted: [FlowScriptError] = []
            let lenient = lenient
            let read = try FlowManifest.parseTabs(
                tabs, manifest: manifest, fail: { message in fail(message, at: "tabs") },
                report: { (error: FlowScriptError) throws(FlowScriptError) in
                    guard lenient else { throw error }
                    noted.append(error)
                })
            manifest.tabs = read
            problems += noted
        }
        if let root = table.fields["root"] { try read(root: root) }
    }

    /// A key the surface does not list, in the order of the file (then by name), so the first
    /// one reported is the first one written.
    private mutating func unknownKeys(of table: LuaTable) throws(FlowScriptError) {
        let known = FlowLuaSurface.manifestKeys.map(\.name)
        let source = source
        let unknownKeys = table.fields.keys.compactMap { key -> String? in
            if case .string(let name) = key, !known.contains(name) { name } else { nil }
        }.sorted { (FlowManifest.line(ofKey: $0, in: source) ?? .max, $0) < (FlowManifest.line(ofKey: $1, in: source) ?? .max, $1) }
        for key in unknownKeys {
            try report(fail("unknown manifest key '\(key)'\(Self.hint(key, in: known.sorted())); expected \(known.joined(separator: ", "))", at: key))
        }
    }

    /// `routes = { name = { params = ..., opens = ... }, ... }` (or a list of names).
    private mutating func read(routes: LuaTable) throws(FlowScriptError) {
        for (key, value) in routes.fields {
            guard case .string(let name) = key else { throw fail("route names must be strings, got \(key)", at: "routes") }
            var spec = FlowManifest.RouteSpec()
            if case .table(let body) = value {
                try read(route: name, body, into: &spec)
            } else {
                // In `check`, reported and kept without payload: names that use it still check.
                try report(fail("route '\(name)' must be declared as a table ({} or { params = { ... } })", at: name))
            }
            manifest.routes[name] = spec
        }
        for case .string(let name) in routes.array {
            manifest.routes[name] = FlowManifest.RouteSpec()
        }
    }

    /// One route's declaration: its keys, `opens` and `params`.
    private mutating func read(route name: String, _ body: LuaTable, into spec: inout FlowManifest.RouteSpec) throws(FlowScriptError) {
        // `param = { ... }` would declare nothing and leave every payload field "unknown".
        for key in Self.strayKeys(of: body, besides: ["params", "opens"]) {
            try report(fail("route '\(name)': unknown key '\(key)'\(Self.hint(key, in: ["params", "opens"])); a route is declared as {} or { params = { field = \"string\", ... }, opens = { \"push\", ... } }", at: key))
        }
        if let opens = body.fields["opens"] { spec.opens = try read(opens: opens, route: name) }
        guard let params = body.fields["params"] else { return }
        guard case .table(let fields) = params else {
            try report(fail("route '\(name)': params must be a table of field types, as params = { id = \"string\" }; got \(params.typeName)", at: "params"))
            return
        }
        let types = FlowManifest.parameterTypes
        for (paramKey, typeValue) in fields.fields {
            guard case .string(let param) = paramKey, case .string(let type) = typeValue, types.contains(type) else {
                // In `check`, the field is reported and left out; the route stays.
                var hint = ""
                if case .string(let type) = typeValue {
                    // `bool`, `int`, `str`: a type the name starts, or the nearest.
                    let near = types.first { !type.isEmpty && $0.hasPrefix(type) } ?? FlowSuggestion.closest(to: type, in: types)
                    hint = near.map { " (did you mean '\($0)'?)" } ?? ""
                }
                let at: String = if case .string(let param) = paramKey { param } else { name }
                try report(fail("route '\(name)': params must map names to one of \(types.joined(separator: ", ")), got \(paramKey) = \(typeValue)\(hint)", at: at))
                continue
            }
            spec.params[param] = type
        }
    }

    /// A route's `opens = { "sheet", ... }`: the operations that open it, each listed once.
    private mutating func read(opens: LuaValue, route name: String) throws(FlowScriptError) -> [String]? {
        let kinds = FlowManifest.RouteSpec.openingKinds
        guard case .table(let list) = opens, list.fields.isEmpty, !list.array.isEmpty else {
            try report(fail("route '\(name)': opens must be a list of operations, as opens = { \"sheet\" }; got \(opens.typeName)", at: "opens"))
            return nil
        }
        var listed: [String] = []
        for item in list.array {
            guard case .string(let kind) = item, kinds.contains(kind) else {
                let hint: String = if case .string(let kind) = item { Self.hint(kind, in: kinds) } else { "" }
                try report(fail("route '\(name)': opens lists the operations that open it, one of \(kinds.joined(separator: ", ")); got \(item)\(hint)", at: "opens"))
                continue
            }
            if !listed.contains(kind) { listed.append(kind) }
        }
        return listed
    }

    /// `dialogs = { "id", ... }`.
    private mutating func read(dialogs: LuaTable) throws(FlowScriptError) {
        for value in dialogs.array {
            guard case .string(let id) = value else {
                try report(fail("dialogs must be a list of ids, got \(value)", at: "dialogs"))
                continue
            }
            manifest.dialogs.append(id)
        }
    }

    /// `facts = { name = default, ... }`.
    private mutating func read(facts: LuaTable) throws(FlowScriptError) {
        for (key, value) in facts.fields {
            guard case .string(let name) = key, let converted = FlowScriptValue(value) else {
                let at: String = if case .string(let name) = key { name } else { "facts" }
                try report(fail("facts must map names to default values (boolean, number, string, table), got \(key) = \(value)", at: at))
                continue
            }
            manifest.facts[name] = converted
        }
    }

    /// `links = { schemes = { ... }, hosts = { ... } }`.
    private mutating func read(links: LuaTable) throws(FlowScriptError) {
        // `scheme = { ... }` would limit nothing: every link would be accepted.
        for key in Self.strayKeys(of: links, besides: ["schemes", "hosts"]) {
            try report(fail("links: unknown key '\(key)'\(Self.hint(key, in: ["schemes", "hosts"])); links has schemes and hosts, as links = { schemes = { \"myapp\" }, hosts = { \"example.com\" } }", at: key))
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
        manifest.links = FlowManifest.Links(schemes: try strings("schemes"), hosts: try strings("hosts"))
    }

    /// `root = "home"` or a route table: a declared route (in `check`, a problem, read without it).
    private mutating func read(root: LuaValue) throws(FlowScriptError) {
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

    /// The errors of a section's own reader (`explore`, `experiments`): a message about the
    /// entry at `path` below `key`, at that entry's line.
    private func sectionError(_ key: String) -> (String, [String]) -> FlowScriptError {
        let source = source, displayName = displayName
        return { message, path in
            FlowScriptError(
                kind: .typeError, file: displayName, line: FlowManifest.line(ofKeys: [key] + path, in: source), message: message)
        }
    }

    /// An error at the line of `key` (the first `key =` in the file).
    private func fail(_ message: String, at key: String? = nil) -> FlowScriptError {
        FlowScriptError(kind: .typeError, file: displayName, line: key.flatMap { FlowManifest.line(ofKey: $0, in: source) }, message: message)
    }

    /// Throws, or in `check` notes the problem and goes on.
    private mutating func report(_ error: FlowScriptError) throws(FlowScriptError) {
        guard lenient else { throw error }
        problems.append(error)
    }

    /// The string keys of `table` other than `expected`, sorted.
    private static func strayKeys(of table: LuaTable, besides expected: [String]) -> [String] {
        table.fields.keys.map { key -> String in if case .string(let text) = key { text } else { "\(key)" } }
            .filter { !expected.contains($0) }.sorted()
    }

    /// " (did you mean 'x'?)" for the name of `names` nearest `name`, or "".
    private static func hint(_ name: String, in names: [String]) -> String {
        FlowSuggestion.closest(to: name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
    }
}
