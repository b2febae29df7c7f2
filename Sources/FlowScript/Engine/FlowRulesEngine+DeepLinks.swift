import FlowLua
import FlowStackCore
import Foundation

extension FlowRulesEngine: FlowDeepLinkResolver {
    /// Resolves a link with the `flow.deeplink` handlers of the rules in force: the manifest's
    /// `links` policy first, then the first matching pattern, whose handler returns the plan
    /// (a list of `flow.op(...)` tables) or nothing (unhandled).
    public func resolve(_ url: URL) -> FlowDeepLinkResolution<Route> {
        guard let set = ruleSet else {
            return .unhandled(reason: "no rules are loaded")
        }
        let links = configuration.manifest?.links ?? FlowManifest.Links()
        let policy = FlowLinkPolicy(allowedSchemes: links.schemes, allowedHosts: links.hosts)
        // The plan's dialog steps (flow.op("showDialog", ...)) go into the plan's `dialogs`.
        var dialogs: [FlowDialogRedirect] = []
        var matched: FlowLinkMatch<LuaFunctionRef>?
        let resolution = FlowDeepLinkResolution<Route>(set.links.resolve(url, policy: policy)) { match in
            matched = match
            guard let plan = try self.plan(for: match, url: url, in: set) else { return nil }
            dialogs = plan.dialogs
            return plan.commands
        }
        guard !dialogs.isEmpty else { return resolution }
        if case .plan(var plan) = resolution {
            plan.dialogs = dialogs
            return .plan(plan)
        }
        guard let match = matched else { return resolution }
        var plan = FlowDeepLinkPlan<Route>([], pattern: match.pattern.description, parameters: match.parameters, location: match.location)
        plan.dialogs = dialogs
        return .plan(plan)
    }

    /// Whether the rules in force register any deep link.
    package var handlesDeepLinks: Bool { !(ruleSet?.links.isEmpty ?? true) }

    /// Duplicate and shadowed deep-link patterns of the rules in force, with `file:line`.
    package var deepLinkDiagnostics: [FlowLinkDiagnostic] { ruleSet?.links.diagnostics ?? [] }

    private func plan(
        for match: FlowLinkMatch<LuaFunctionRef>, url: URL, in set: FlowRuleSet
    ) throws -> (commands: [FlowCommand<Route>], dialogs: [FlowDialogRedirect])? {
        let context = match.location.map { "\($0.file):\($0.line ?? 1)" }
        let parameters = LuaTable(fields: Dictionary(uniqueKeysWithValues: match.parameters.map { (LuaTableKey.string($0.key), LuaValue.string($0.value)) }))
        let results: [LuaValue]
        do {
            results = try set.vm.call(match.handler, [.table(parameters), .string(url.absoluteString)])
        } catch {
            throw Self.synchronous(error, "deep-link handlers run synchronously")
        }
        let first = results.first ?? .nil
        guard case .table(let list) = first else {
            if case .nil = first { return nil }
            throw located("a deep-link handler must return a list of flow.op(...) or nothing, got a \(first.typeName)", context)
        }
        var commands: [FlowCommand<Route>] = []
        var dialogs: [FlowDialogRedirect] = []
        for item in list.array {
            guard case .table(let op) = item, case .string(let kind)? = op.fields["kind"] else {
                throw located("a deep-link plan must be a list of flow.op(kind, route) tables, got \(item.typeName)", context)
            }
            if kind == "showDialog" {
                dialogs.append(try planDialog(op, context: context))
                continue
            }
            commands.append(try planStep(op, kind: kind, plan: "a deep-link plan", context: context))
        }
        return (commands, dialogs)
    }
}
