import FlowStackCore

/// The kinds of script a project holds, each with its own globals.
package enum FlowLuaScript: String, Sendable, Hashable, CaseIterable {
    /// `rules/*.lua`: the rules the app runs.
    case rules
    /// `flows/*.lua`: the flow tests.
    case flows
    /// `explore/*.lua`: the invariants `flowstack explore` checks.
    case explore
}

/// The table a function of the Lua surface belongs to.
package enum FlowLuaOwner: String, Sendable, Hashable, CaseIterable {
    /// `flow.*` in rules.
    case flow
    /// `flow.style.*` in rules.
    case flowStyle = "flow.style"
    /// `router.*` in flows.
    case router
    /// `app.*` in flows.
    case app
    /// The matchers of `expect(value)` in flows.
    case expectation = "expect(...)"
    /// The global functions of flow files (`describe`, `it`, `expect`, ...).
    case flowGlobal = "flows"
    /// The global functions of explore files (`invariant`).
    case exploreGlobal = "explore"

    /// The prefix a call spells (`router.`), empty for globals and matchers.
    package var prefix: String {
        switch self {
        case .flow, .flowStyle, .router, .app: rawValue + "."
        case .expectation, .flowGlobal, .exploreGlobal: ""
        }
    }
}

/// One parameter of a surface function, as `name: Type` or `name?: Type` (optional).
package struct FlowLuaParameter: Sendable, Hashable {
    /// The name (`...` for any number of values).
    package let name: String
    /// The LuaLS type (`RouteLike`, `integer`, `"inclusive"|"exclusive"`).
    package let type: String
    /// Whether the call may leave it out.
    package let isOptional: Bool
    /// A note on it (after `#` in the signature: `policy?: DialogPolicy # only with "dialog"`), or empty.
    package let note: String
}

/// One function (or property) of the Lua surface: its table, name, parameters, results and a
/// one-line doc. The LuaLS annotations, the luacheck globals, `flowstack check`'s name and
/// arity tables and the flow runner's lists of names are all made from these.
package struct FlowLuaFunction: Sendable, Hashable {
    /// The table it belongs to.
    package let owner: FlowLuaOwner
    /// The name in that table.
    package let name: String
    /// The parameters as LuaLS spells them: `route: RouteLike, match?: "inclusive"|"exclusive"`.
    package let signature: String
    /// The LuaLS type of the results (`Result`, `integer?, string?`), or nil when it returns nothing.
    package let returns: String?
    /// One line saying what it does.
    package let doc: String
    /// Whether it also exists as `<name>Async` (router navigations).
    package let hasAsyncTwin: Bool
    /// Whether it is a property (read and assigned, not called); `returns` is its type.
    package let isProperty: Bool
    /// The parameters, read from `signature` once (commas inside `fun(...)`, `table<...>` or
    /// `{...}` do not split).
    package let parameters: [FlowLuaParameter]

    /// A function of `owner`, declared as LuaLS would spell it: `"popTo(route: RouteLike, match?:
    /// \"inclusive\"|\"exclusive\")"`; without parentheses (`"pendingLinkTimeout"`), a property
    /// whose type is `returns`.
    package init(_ owner: FlowLuaOwner, _ declaration: String, returns: String? = nil, _ doc: String, async hasAsyncTwin: Bool = false) {
        self.owner = owner
        if let open = declaration.firstIndex(of: "("), declaration.last == ")" {
            name = String(declaration[..<open])
            signature = String(declaration[declaration.index(after: open)..<declaration.index(before: declaration.endIndex)])
            isProperty = false
        } else {
            name = declaration
            signature = ""
            isProperty = true
        }
        self.returns = returns
        self.doc = doc
        self.hasAsyncTwin = hasAsyncTwin
        parameters = Self.parameters(of: signature)
    }

    /// The name as a script spells it: `router.push`, `describe`, `to_equal`.
    package var qualifiedName: String { owner.prefix + name }

    /// The parameters a signature spells.
    private static func parameters(of signature: String) -> [FlowLuaParameter] {
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in signature {
            if "(<{[".contains(character) { depth += 1 }
            if ")>}]".contains(character) { depth -= 1 }
            if character == ",", depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.map { $0.trimmingSpaces }.filter { !$0.isEmpty }.map { part in
            guard let colon = part.firstIndex(of: ":") else {
                return FlowLuaParameter(name: part, type: "any", isOptional: part == "...", note: "")
            }
            var name = String(part[..<colon]).trimmingSpaces
            var type = String(part[part.index(after: colon)...])
            var note = ""
            if let hash = type.firstIndex(of: "#") {
                note = String(type[type.index(after: hash)...]).trimmingSpaces
                type = String(type[..<hash])
            }
            let optional = name.hasSuffix("?") || name == "..."
            if name.hasSuffix("?") { name.removeLast() }
            return FlowLuaParameter(name: name, type: type.trimmingSpaces, isOptional: optional, note: note)
        }
    }

    /// The number of arguments a call must give.
    package var minimumArguments: Int { parameters.prefix { !$0.isOptional }.count }

    /// The number of arguments a call may give, nil when any number (`...`).
    package var maximumArguments: Int? { parameters.contains { $0.name == "..." } ? nil : parameters.count }
}

/// A name with a LuaLS type and a one-line doc: a manifest key, a style attribute, a field of
/// explore's state.
package struct FlowLuaField: Sendable, Hashable {
    /// The name.
    package let name: String
    /// The LuaLS type.
    package let type: String
    /// One line saying what it is.
    package let doc: String

    /// A field.
    package init(_ name: String, _ type: String, _ doc: String) {
        self.name = name
        self.type = type
        self.doc = doc
    }
}

/// A global a kind of script can read: a table (`flow`, `router`) or a function (`describe`).
package struct FlowLuaGlobal: Sendable, Hashable {
    /// The name.
    package let name: String
    /// The scripts that have it.
    package let scripts: Set<FlowLuaScript>
    /// One line saying what it is.
    package let doc: String

    /// A global of `scripts`.
    package init(_ name: String, _ scripts: Set<FlowLuaScript>, _ doc: String) {
        self.name = name
        self.scripts = scripts
        self.doc = doc
    }
}

/// A value with a one-line doc: an operation kind, a dialog policy, a payload type.
package struct FlowLuaName: Sendable, Hashable {
    /// The value as scripts spell it.
    package let name: String
    /// One line saying what it means.
    package let doc: String

    /// A documented name.
    package init(_ name: String, _ doc: String) {
        self.name = name
        self.doc = doc
    }
}

extension FlowLuaSurface {
    /// The functions of one table.
    package static func functions(of owner: FlowLuaOwner) -> [FlowLuaFunction] {
        functions.filter { $0.owner == owner }
    }

    /// The names of one table as scripts reach them: each function, and its `Async` twin.
    package static func names(of owner: FlowLuaOwner) -> [String] {
        functions(of: owner).flatMap { $0.hasAsyncTwin ? [$0.name, $0.name + "Async"] : [$0.name] }
    }

    /// Every function by table and by the name scripts spell (`Async` twins included), made once.
    private static let index: [FlowLuaOwner: [String: FlowLuaFunction]] = {
        var index: [FlowLuaOwner: [String: FlowLuaFunction]] = [:]
        for function in functions {
            index[function.owner, default: [:]][function.name] = function
            if function.hasAsyncTwin { index[function.owner, default: [:]][function.name + "Async"] = function }
        }
        return index
    }()

    /// The function `owner.name` (an `Async` twin gives its synchronous entry), or nil.
    package static func function(_ owner: FlowLuaOwner, _ name: String) -> FlowLuaFunction? {
        index[owner]?[name]
    }

    /// The names of the globals `script` files have besides Lua's.
    package static func globalNames(of script: FlowLuaScript) -> [String] {
        globals.filter { $0.scripts.contains(script) }.map(\.name)
    }

    /// The operation kinds rules and flows spell (`push`, `sheet`, ...).
    package static var kindNames: [String] { kinds.map(\.name) }

    /// The dialog policies (`replace`, `queue`, ...).
    package static var policyNames: [String] { policies.map(\.name) }
}

extension String {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
