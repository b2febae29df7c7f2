import FlowScript
import Foundation

/// The global tables and functions of the annotation file, made from ``FlowLuaSurface``:
/// `flow`, `router`, `app`, `expect` and its matchers, the test functions and explore's
/// `invariant`.
extension LuaTypesGenerator {
    /// `---@param` and `---@return` lines and the declaration of one function or property.
    static func declaration(_ function: FlowLuaFunction, name: String? = nil, doc: String? = nil) -> [String] {
        let qualified = function.owner.prefix + (name ?? function.name)
        var out = ["---" + (doc ?? function.doc)]
        if function.isProperty {
            let type = function.returns ?? "any"
            return out + ["---@type \(type)", "\(qualified) = \(type == "number" ? "0" : "{}")", ""]
        }
        let parameters = function.parameters
        for parameter in parameters {
            let optional = parameter.isOptional && parameter.name != "..." ? "?" : ""
            out.append("---@param \(parameter.name)\(optional) \(parameter.type)" + (parameter.note.isEmpty ? "" : " " + parameter.note))
        }
        if let returns = function.returns { out.append("---@return \(returns)") }
        out.append("function \(qualified)(\(parameters.map(\.name).joined(separator: ", "))) end")
        out.append("")
        return out
    }

    /// The function's LuaLS type, `fun(item: any)`, for a class field.
    static func functionType(_ function: FlowLuaFunction) -> String {
        let parameters = function.parameters.map { "\($0.name)\($0.isOptional && $0.name != "..." ? "?" : ""): \($0.type)" }
        return "fun(\(parameters.joined(separator: ", ")))" + (function.returns.map { ": " + $0 } ?? "")
    }

    /// Every function of `owner`, and the `Async` twin of those that have one.
    private static func declarations(of owner: FlowLuaOwner) -> [String] {
        let functions = FlowLuaSurface.functions(of: owner)
        var out = functions.flatMap { declaration($0) }
        for function in functions where function.hasAsyncTwin {
            out += declaration(function, name: function.name + "Async",
                               doc: "Like \(function.qualifiedName), through the async queue (rules may call async host functions).")
        }
        return out
    }

    private static func globalDoc(_ name: String) -> String {
        FlowLuaSurface.globals.first { $0.name == name }?.doc ?? ""
    }

    func flowTable() -> [String] {
        var out = [
            "---@alias RuleFunction fun(op: Op, stacks: Stack[], ctx: RuleContext): (boolean|Redirect|nil), string?",
            "---A dialog rule: nothing or true shows the dialog; false/nil and a reason refuse it;",
            "---flow.redirect(\"dialog\", other, reason, policy) shows another dialog (or this one with another policy).",
            "---@alias DialogRuleFunction fun(dialog: FlowDialogView, stacks: Stack[], ctx: RuleContext): (boolean|Redirect|nil), string?",
            "",
            "---@class FlowStyle",
        ]
        for hook in FlowLuaSurface.functions(of: .flowStyle) {
            out.append("---@field \(hook.name) \(Self.functionType(hook)) \(hook.doc)")
        }
        out += ["", "---\(Self.globalDoc("flow"))", "flow = {}", ""]
        out += Self.declarations(of: .flow)
        return out
    }

    func routerTable() -> [String] {
        ["---\(Self.globalDoc("router"))", "router = {}", ""] + Self.declarations(of: .router)
    }

    func appTable() -> [String] {
        [
            "---A host function the rules call.",
            "---@alias HostName \(Self.union(hostNames, fallback: "string"))",
            "",
            "---An experiment's assignment a rule read for the first time (app.exposures()).",
            "---@class Exposure",
            "---@field experiment ExperimentName",
            "---@field variant string",
            "---@field unit string? the unit id (nil: enrolled by an override without a unit)",
            "---@field route RouteName? the route of the navigation whose rule read it",
            "---@field kind string the navigation's kind, or style, dialog or rules",
            "",
            "---@class AppResetOptions",
            "---@field root? RouteLike",
            "---@field facts? FactChanges",
            // Tabs.
            "---@field tab? TabName the tab selected at start (default the first)",
            "---@field experiments? ExperimentChoices the variants forced (\"none\": not enrolled)",
            "---@field unit? string the experiment unit id (default none: only forced variants enrol)",
            "",
            "---\(Self.globalDoc("app"))",
            "app = {}",
            "",
        ] + Self.declarations(of: .app)
    }

    func testFunctions() -> [String] {
        var out = ["---What expect(value) returns: its matchers (each also as not_<name> and after .never).", "---@class Expectation"]
        for matcher in FlowLuaSurface.functions(of: .expectation) {
            out.append("---@field \(matcher.name) \(Self.functionType(matcher)) \(matcher.doc)")
        }
        out += [
            "---@field never Expectation the same matchers, negated (also as not_to_<name>)",
            "",
            "---@class Spy",
            "---@field calls any[][] the arguments of every call",
            "",
        ]
        out += Self.declarations(of: .flowGlobal)
        return out
    }

    func exploreFunctions() -> [String] {
        var out = ["---The state an invariant of explore/*.lua checks.", "---@class ExploreState"]
        for field in FlowLuaSurface.exploreState {
            out.append("---@field \(field.name) \(field.type) \(field.doc)")
        }
        return out + [""] + Self.declarations(of: .exploreGlobal)
    }
}
