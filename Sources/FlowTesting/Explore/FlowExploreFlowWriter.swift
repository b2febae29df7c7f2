import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// Writes a finding as a flow test that replays its trace and checks the property: it fails
/// while the rules have the problem and passes once they are fixed (`explore --emit-flows`).
///
/// Rule errors, redirect loops, traps and broken invariants get a flow; `unreachable`,
/// `dead-rule` and `unanswered-host` findings have no trace to replay and get none.
package enum FlowExploreFlowWriter {
    /// The flow files for `findings`: file name → text. `root` is the manifest's root, or for
    /// a tabbed app its first tab's root, with that tab's name in `tab` (a trap's way back
    /// selects it).
    package static func flows(
        for findings: [FlowExploreFinding], root: FlowRouteValue, tab: String? = nil, invariantSources: [FlowRulesSource]
    ) -> [(name: String, text: String)] {
        var files: [(String, String)] = []
        var counts: [FlowExploreFinding.Kind: Int] = [:]
        for finding in findings {
            guard let check = check(for: finding, root: root, tab: tab, invariantSources: invariantSources) else { continue }
            counts[finding.kind, default: 0] += 1
            let name = "explore-\(finding.kind.rawValue)-\(counts[finding.kind]!).lua"
            files.append((name, text(for: finding, check: check)))
        }
        return files
    }

    /// The invariant sources of a project (`explore/*.lua`), to embed in invariant flows.
    @MainActor
    package static func invariantSources(of project: FlowProject) -> [FlowRulesSource] {
        (try? FlowProject.sources(in: project.directory.appendingPathComponent("explore"))) ?? []
    }

    static func quoted(_ text: String) -> String {
        FlowLuaSourceText.string(text)
    }

    private static func text(for finding: FlowExploreFinding, check: (setup: [String], last: [String])) -> String {
        var facts: [String] = []
        var hosts: [String] = []
        for name in finding.facts.keys.sorted() {
            let value = finding.facts[name]!.luaSource
            if name.hasPrefix("host.") {
                let host = String(name.dropFirst(5))
                hosts.append("    app.host(\(quoted(host)), function() return \(value) end)")
            } else {
                facts.append("\(FlowLuaSourceText.key(name)) = \(value)")
            }
        }
        var lines = [
            "-- Emitted by `flowstack explore`: \(finding.kind.rawValue)\(finding.location.map { " at \(FlowLuaSourceText.comment($0))" } ?? "").",
            "-- \(FlowLuaSourceText.comment(finding.message))",
            "-- It fails while the rules have this problem; once they are fixed it passes: keep it as a regression test.",
        ]
        lines += check.setup
        lines += [
            "describe(\(quoted("explore: \(finding.kind.rawValue)")), function()",
            "  it(\(quoted(finding.trace.isEmpty ? "at the root" : finding.trace.joined(separator: ", "))), function()",
            "    app.reset{ facts = { \(facts.joined(separator: ", ")) } }",
        ]
        lines += hosts
        let steps = finding.steps
        let replayed = finding.kind == .ruleError || finding.kind == .redirectLoop ? steps.dropLast() : steps[...]
        lines += replayed.map { "    \($0.luaCall)" }
        lines += check.last.map { "    " + $0 }
        lines += ["  end)", "end)", ""]
        return lines.joined(separator: "\n")
    }

    private static func check(
        for finding: FlowExploreFinding, root: FlowRouteValue, tab: String?, invariantSources: [FlowRulesSource]
    ) -> (setup: [String], last: [String])? {
        switch finding.kind {
        case .ruleError, .redirectLoop:
            guard let last = finding.steps.last else { return nil }
            let pattern = finding.kind == .ruleError ? "%.lua:%d+: " : "redirect loop"
            let what = finding.kind == .ruleError ? "no rule raises an error" : "no redirect loop"
            return ([], [
                "local before = #router.history()",
                last.luaCall,
                "local history = router.history()",
                "for i = before + 1, #history do",
                "  -- \(what)",
                "  expect(history[i].reason or \"\").never.to_match(\(quoted(pattern)))",
                "end",
            ])
        case .trap:
            return ([], [
                "-- the root can be reached again: close dialogs, swipe, dismiss, pop, set the root",
                "local function atRoot()",
                "  local stacks = router.stacks()",
                "  return #stacks == 1 and #stacks[1].routes == 1 and stacks[1].routes[1].name == \(quoted(root.name))",
                "    and router.dialog() == nil" + (tab.map { " and router.tab() == \(quoted($0))" } ?? ""),
                "end",
                "for _ = 1, 8 do",
                "  if atRoot() then break end",
                "  router.hideDialog()",
                "  local stacks = router.stacks()",
                "  local front = stacks[#stacks]",
                "  local style = router.style(#stacks, #front.routes - 1)",
                "  if front.presentation == \"sheet\" and not (style.modal and style.modal.interactiveDismissDisabled) then",
                "    router.userDismiss()",
                "  elseif #front.routes > 1 and not style.screen.navigationBarBackButtonHidden then",
                "    router.userPop()",
                "  end",
                "  router.dismiss()",
                "  router.dismissAll()",
                "  router.pop()",
                "  router.popToRoot()",
            ] + (tab.map { ["  router.selectTab(\(quoted($0)))"] } ?? []) + [
                "  if not atRoot() then \(FlowExploreStep.setRoot(root).luaCall) end",
                "end",
                "expect(atRoot()).to_be(true)",
            ])
        case .invariant:
            guard let name = finding.invariant else { return nil }
            var setup = ["", "-- The project's invariants (explore/*.lua), as explore checks them.", "local invariants = {}", "do"]
            setup.append("  local function invariant(name, fn) invariants[name] = fn end")
            for source in invariantSources {
                setup.append("  -- \(FlowLuaSourceText.comment(source.name))")
                setup.append("  (function()")
                setup += source.text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
                setup.append("  end)()")
            }
            setup += ["end", ""]
            return (setup, [
                "local stacks = router.stacks()",
                "local front = stacks[#stacks]",
                "local s = { stacks = stacks, top = front.routes[#front.routes], dialog = router.dialog(), facts = facts }",
                "expect(invariants[\(quoted(name))](s)).to_be_truthy()",
            ])
        case .unreachable, .deadRule, .unansweredHost:
            return nil
        }
    }
}
