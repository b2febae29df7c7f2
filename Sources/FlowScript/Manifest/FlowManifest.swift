import FlowStackCore
import Foundation

/// The route manifest of a flow project (`routes.lua`): the names rules and flows may use.
///
/// With a manifest, a route, dialog or fact it does not name, or a payload field of the wrong
/// type, is an error with a "did you mean" suggestion; facts start from the declared defaults.
public struct FlowManifest: Hashable, Sendable {
    /// One declared route: its payload fields and their types, and the operations that open it.
    package struct RouteSpec: Hashable, Sendable {
        /// Payload field name → type (`"string"`, `"number"`, `"integer"`, `"boolean"`, `"table"`).
        package var params: [String: String]
        /// The operations the app opens the route with (`opens = { "sheet" }`), nil when not
        /// declared (any): `flowstack explore` and `diff` try only these on it.
        package var opens: [String]?

        /// The operations `opens` may list.
        package static let openingKinds = ["push", "pushMany", "sheet", "fullScreenCover", "setRoot", "replaceCurrent"]

        /// Creates a route spec.
        package init(params: [String: String] = [:], opens: [String]? = nil) {
            self.params = params
            self.opens = opens
        }
    }

    /// Which links the app accepts.
    package struct Links: Hashable, Sendable {
        /// Allowed schemes (empty: any).
        package var schemes: [String]
        /// Allowed hosts for http/https links (empty: any).
        package var hosts: [String]

        /// Creates a link policy.
        package init(schemes: [String] = [], hosts: [String] = []) {
            self.schemes = schemes
            self.hosts = hosts
        }
    }

    /// The root route every flow starts from.
    package var root: FlowRouteValue?
    /// The declared routes.
    package var routes: [String: RouteSpec]
    /// The declared dialogs.
    package var dialogs: [String]
    /// The declared facts and their defaults.
    package var facts: [String: FlowScriptValue]
    /// The accepted links.
    package var links: Links
    /// Where it was loaded from, for messages.
    package var file: String
    /// The domains `flowstack explore` walks (the `explore` key), empty when not declared.
    package var explore = FlowExploreSection()
    /// The declared tabs in order (`tabs = { { name = "feed", root = "feedHome" }, ... }`), each
    /// with its root route; the first is selected at start. Empty for an app without tabs.
    package var tabs: [Tab] = []
    /// The declared experiments by name (`experiments = { ... }`), empty when none.
    package var experiments: [String: FlowExperiment] = [:]

    /// One declared tab: its name and its root route.
    package struct Tab: Hashable, Sendable {
        /// The tab's name (the app's `FlowTab.flowTabName`).
        package var name: String
        /// The tab's root route.
        package var root: FlowRouteValue
    }

    /// The declared tab names, in order.
    package var tabNames: [String] { tabs.map(\.name) }

    /// Checks a tab name against the declared tabs (`nil` when it is one, or none are declared
    /// and the app's router decides).
    package func problem(withTab name: String) -> String? {
        if tabs.isEmpty {
            return "unknown tab '\(name)': \(file) declares no tabs (add tabs = { { name = \"\(name)\", root = ... } })"
        }
        return tabNames.contains(name) ? nil : "unknown tab '\(name)'" + undeclared(name, in: tabNames, key: "tabs")
    }

    /// Creates a manifest.
    package init(
        root: FlowRouteValue? = nil, routes: [String: RouteSpec] = [:], dialogs: [String] = [],
        facts: [String: FlowScriptValue] = [:], links: Links = Links(), file: String = "routes.lua"
    ) {
        self.root = root
        self.routes = routes
        self.dialogs = dialogs
        self.facts = facts
        self.links = links
        self.file = file
    }

    /// The parameter types a manifest may declare.
    package static let parameterTypes = FlowLuaSurface.payloadTypes.map(\.name)

    /// Checks a route against the declarations: its name and payload field types.
    package func problem(with route: FlowRouteValue) -> String? {
        guard let spec = routes[route.name] else {
            return "unknown route '\(route.name)'" + undeclared(route.name, in: Array(routes.keys), key: "routes")
        }
        for (field, value) in route.payload.sorted(by: { $0.key < $1.key }) {
            guard let type = spec.params[field] else {
                return "route '\(route.name)' has no payload field '\(field)'" + suggestion(field, in: Array(spec.params.keys))
            }
            if !Self.value(value, hasType: type) {
                return "route '\(route.name)': field '\(field)' must be a \(type), got \(value.typeName) \(value.luaSource)"
            }
        }
        return nil
    }

    /// Checks a dialog id.
    package func problem(withDialog id: String) -> String? {
        dialogs.contains(id) ? nil : "unknown dialog '\(id)'" + undeclared(id, in: dialogs, key: "dialogs")
    }

    /// Checks a fact name.
    package func problem(withFact name: String) -> String? {
        facts[name] != nil ? nil : "unknown fact '\(name)'" + undeclared(name, in: Array(facts.keys), key: "facts")
    }

    /// Checks a fact's value against its declared default's type.
    package func problem(withFact name: String, value: FlowScriptValue) -> String? {
        if let problem = problem(withFact: name) { return problem }
        let declared = facts[name]!
        let compatible = declared.typeName == value.typeName
            || (["integer", "number"].contains(declared.typeName) && ["integer", "number"].contains(value.typeName))
        return compatible ? nil : "fact '\(name)' is a \(declared.typeName), got \(value.typeName) \(value.luaSource)"
    }

    /// What follows "unknown route 'x'" (dialog, fact, tab): the near name and where names are
    /// declared, or, with no name near it, what to do: declare it under `key` in the manifest.
    private func undeclared(_ word: String, in candidates: [String], key: String) -> String {
        let near = suggestion(word, in: candidates)
        return near.isEmpty ? " (not declared in \(file): add it to \(key) there)" : near + " (declared in \(file))"
    }

    private func suggestion(_ word: String, in candidates: [String]) -> String {
        FlowSuggestion.closest(to: word, in: candidates.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
    }

    package static func value(_ value: FlowScriptValue, hasType type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("integer", .int), ("number", .int), ("number", .double),
             ("table", .table), ("table", .array):
            return true
        default:
            return false
        }
    }
}
