import FlowLua
import FlowStackCore
import Foundation

/// The manifest's `explore` section: the finite domains `flowstack explore` and `diff` walk.
///
/// ```lua
/// explore = {
///   facts = { tier = { "free", "pro" } },              -- values of non-boolean facts
///   hostAnswers = { requestPhotoAccess = { true, false } },
///   urls = { "myapp://orders/7" },                     -- links passed to router.open
///   params = { id = { "7" } },                         -- sample values of route parameters
/// }
/// ```
///
/// Booleans facts take both values unless listed; other facts take their default unless listed.
/// A host function the rules call with no listed answers is reported, never guessed.
package struct FlowExploreSection: Hashable, Sendable {
    /// Values to explore per fact name.
    package var facts: [String: [FlowScriptValue]]
    /// The answers each host function gives, one exploration branch per answer.
    package var hostAnswers: [String: [FlowScriptValue]]
    /// Example links opened with `router.open`.
    package var urls: [String]
    /// Sample values per route parameter name.
    package var params: [String: [FlowScriptValue]]

    /// Creates a section.
    package init(
        facts: [String: [FlowScriptValue]] = [:], hostAnswers: [String: [FlowScriptValue]] = [:],
        urls: [String] = [], params: [String: [FlowScriptValue]] = [:]
    ) {
        self.facts = facts
        self.hostAnswers = hostAnswers
        self.urls = urls
        self.params = params
    }

    /// The keys the section may hold.
    package static let keys = ["facts", "hostAnswers", "urls", "params"]

    /// Reads the section from the manifest's `explore` value; `fail` builds an error for a key
    /// path inside the section (`["params", "id"]`, empty for the section itself).
    static func parse(
        _ value: LuaValue, fail: (String, [String]) -> FlowScriptError
    ) throws(FlowScriptError) -> FlowExploreSection {
        guard case .table(let table) = value else {
            throw fail("'explore' must be a table, as in explore = { facts = { tier = { \"free\", \"pro\" } } }", [])
        }
        for case .string(let key) in table.fields.keys where !keys.contains(key) {
            let hint = FlowSuggestion.closest(to: key, in: keys).map { " (did you mean '\($0)'?)" } ?? ""
            throw fail("unknown explore key '\(key)'\(hint); expected \(keys.joined(separator: ", "))", [key])
        }
        func lists(_ key: String) throws(FlowScriptError) -> [String: [FlowScriptValue]] {
            guard let value = table.fields[.string(key)] else { return [:] }
            guard case .table(let map) = value, map.array.isEmpty else {
                throw fail("explore.\(key) must map names to lists of values, as in \(key) = { name = { 1, 2 } }", [key])
            }
            var result: [String: [FlowScriptValue]] = [:]
            for (nameKey, listValue) in map.fields {
                guard case .string(let name) = nameKey, case .table(let list) = listValue, !list.array.isEmpty,
                      list.fields.isEmpty else {
                    throw fail("explore.\(key).\(nameKey) must be a non-empty list of values, as in { true, false }", [key, "\(nameKey)"])
                }
                var values: [FlowScriptValue] = []
                for item in list.array {
                    guard let converted = FlowScriptValue(item) else {
                        throw fail("explore.\(key).\(name): \(item.typeName) is not a value (boolean, number, string, table)", [key, name])
                    }
                    values.append(converted)
                }
                result[name] = values
            }
            return result
        }
        var section = FlowExploreSection(facts: try lists("facts"), hostAnswers: try lists("hostAnswers"), params: try lists("params"))
        if let urls = table.fields["urls"] {
            guard case .table(let list) = urls, list.fields.isEmpty else {
                throw fail("explore.urls must be a list of links, as in urls = { \"myapp://orders/7\" }", ["urls"])
            }
            for item in list.array {
                guard case .string(let url) = item, URL(string: url) != nil else {
                    throw fail("explore.urls: \(item) is not a link", ["urls"])
                }
                section.urls.append(url)
            }
        }
        return section
    }
}
