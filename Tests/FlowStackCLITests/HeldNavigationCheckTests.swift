import FlowStackTestSupport
import Foundation
import Testing

/// `flowstack check` on held navigations: the options table of
/// `flow.redirect(kind, route, reason, { resume = true })`.
@Suite("flowstack check: held navigations")
struct HeldNavigationCheckTests {
    static let manifest = """
        return {
          root = "home",
          routes = { home = {}, orders = {}, signIn = {}, cart = {} },
          dialogs = { "loginRequired" },
          facts = { signedIn = false },
        }
        """

    @Test("reports unknown options (did you mean), for a dialog redirect too, a non-boolean resume, and resume where it does nothing")
    func plantedMistakes() async throws {
        let project = try TemporaryProject([
            "routes.lua": Self.manifest,
            "rules/held.lua": """
                flow.guard("orders", function()
                  if not facts.signedIn then return flow.redirect("sheet", "signIn", "sign in", { resum = true }) end
                end)
                flow.guard("cart", function()
                  if not facts.signedIn then return flow.redirect("sheet", "signIn", "sign in", { resume = "yes" }) end
                end)
                flow.guard("signIn", function()
                  return flow.redirect("dialog", "loginRequired", "sign in", { resume = true, polcy = "queue" })
                end)
                flow.deeplink("/orders", function() return { flow.op("push", "orders", { resume = true }) } end)
                flow.guard("home", function()
                  return flow.redirect("sheet", "signIn", "ok", { resume = true })
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let expected = [
            "rules/held.lua:2: error: unknown option 'resum' in flow.redirect's options (did you mean 'resume'?); the options are: resume",
            "rules/held.lua:5: error: flow.redirect's option 'resume' must be a boolean",
            "rules/held.lua:8: error: unknown option 'polcy' in flow.redirect's options (did you mean 'policy'?); the options are: resume, policy",
            "rules/held.lua:10: error: resume is an option of flow.redirect (a rule's redirect), not of flow.op (a deep link's step)",
        ]
        expectLines(of: output, startingWith: expected)
        #expect(!output.stdout.contains("held.lua:12"), "a right resume option is clean:\n\(output.stdout)")
    }
}
