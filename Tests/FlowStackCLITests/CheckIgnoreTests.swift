import FlowStackTestSupport
import Foundation
import Testing

/// `flowstack check`: a guard or precondition returning a literal that is not a decision, and
/// `-- flowstack: ignore <kind>` comments (honoured by --strict).
@Suite("flowstack check: rule returns and ignore comments")
struct CheckIgnoreTests {
    static let manifest = """
        return {
          root = "home",
          routes = { home = {}, login = {}, watch = { params = { id = "string" } } },
          facts = { isLoggedIn = false },
        }
        """

    @Test("a guard or precondition returning a string, a number or a table is an error at the return")
    func literalReturns() async throws {
        let project = try TemporaryProject([
            "routes.lua": Self.manifest,
            "rules/gates.lua": """
                flow.guard("watch", function(op)
                  if not facts.isLoggedIn then return "login" end
                  local describe = function() return "a string a nested function returns" end
                  return true
                end)
                flow.precondition("push", function(op, stacks)
                  if #stacks > 3 then return 42 end
                  return false, "a reason is fine"
                end)
                flow.guard("login", function() return { } end)
                flow.guard("home", function() return "prefix" .. op.kind == "x" end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        expectLines(of: output, startingWith: [
            "rules/gates.lua:2: error: flow.guard: a rule returns the string \"login\", which is neither nothing, true, false (and a reason) nor flow.redirect(...): at run time it blocks the operation as a script error (to send the person to 'login', return flow.redirect(\"sheet\", \"login\", reason)",
            "rules/gates.lua:7: error: flow.precondition: a rule returns the number 42",
            "rules/gates.lua:10: error: flow.guard: a rule returns a table",
        ])
        #expect(!output.stdout.contains("gates.lua:3:"), "a nested function's return is its own:\n\(output.stdout)")
        #expect(!output.stdout.contains("gates.lua:11:"), "an expression is not a literal:\n\(output.stdout)")
    }

    @Test("-- flowstack: ignore <kind> on the line or the line above silences that finding, and --strict passes")
    func ignoreComments() async throws {
        let rules = """
            flow.deeplink("/w/:season", function(p)
              return { flow.op("push", { name = "watch", id = p.seasn }) } -- flowstack: ignore link-parameter
            end)
            flow.deeplink("/v/:season", function(p)
              -- flowstack: ignore link-parameter
              return { flow.op("push", { name = "watch", id = p.seasn }) }
            end)
            flow.deeplink("/x/:season", function(p)
              return { flow.op("push", { name = "watch", id = p.seasn }) } -- flowstack: ignore route
            end)
            """
        let project = try TemporaryProject(["routes.lua": Self.manifest, "rules/links.lua": rules])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path, "--strict"])
        #expect(output.status == 1, "the third finding is of another kind: \(output.stdout)")
        #expect(!output.stdout.contains("links.lua:2:"), "\(output.stdout)")
        #expect(!output.stdout.contains("links.lua:6:"), "\(output.stdout)")
        #expect(output.lines.contains { $0.hasPrefix("rules/links.lua:9: warning:") && $0.hasSuffix("(did you mean 'p.season'?)") },
                "\(output.stdout)")
        let clean = try TemporaryProject([
            "routes.lua": Self.manifest,
            "rules/links.lua": rules.replacingOccurrences(of: "ignore route", with: "ignore link-parameter"),
        ])
        defer { clean.remove() }
        let strict = try await CLIRunner.run(["check", clean.path, "--strict"])
        #expect(strict.status == 0, "\(strict.stdout)")
        #expect(strict.lines.last?.hasSuffix(": 0 errors, 0 warnings") == true, "\(strict.stdout)")
    }

    @Test("an ignore comment naming no kind, or an unknown one, is an error with the kinds")
    func unknownKind() async throws {
        let project = try TemporaryProject([
            "routes.lua": Self.manifest,
            "rules/links.lua": """
                flow.guard("home", function() return true end) -- flowstack: ignore retrun
                flow.guard("login", function() return true end) -- flowstack: ignore
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        expectLines(of: output, startingWith: [
            "rules/links.lua:1: error: flowstack: ignore names an unknown kind 'retrun' (did you mean 'return'?); kinds: route, dialog,",
            "rules/links.lua:2: error: flowstack: ignore needs the kind of finding it silences: one of route, dialog,",
        ])
    }
}
