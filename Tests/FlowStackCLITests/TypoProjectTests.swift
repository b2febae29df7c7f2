import FlowStackTestSupport
import Foundation
import Testing

/// One `flowstack check` run reports every mistake planted in Tests/Fixtures/typo-project.
@Suite("flowstack check: the typo project")
struct TypoProjectTests {
    static let planted = [
        "routes.lua:4: error: root: unknown route 'splsh' (did you mean 'splash'?)",
        "routes.lua:11: error: unknown manifest key 'fatcs' (did you mean 'facts'?)",
        "rules/10-auth.lua:1: error: unknown route 'crad' (did you mean 'card'?)",
        "rules/10-auth.lua:2: error: unknown fact 'isLogedIn' (did you mean 'isLoggedIn'?)",
        "rules/20-style.lua:2: error: unknown route 'hom' (did you mean 'home'?)",
        "rules/20-style.lua:4: warning: screen style attribute tint ignored",
        "rules/20-style.lua:6: warning: screen style attribute navigationBarHiden ignored",
        "rules/20-style.lua:9: warning: deep link '/cards/:other'",
        "flows/typos.lua:4: error: unknown route 'logn' (did you mean 'login'?)",
        "flows/typos.lua:5: error: unknown dialog 'netwrkError' (did you mean 'networkError'?)",
        "flows/typos.lua:6: error: unknown fact 'isPremum' (did you mean 'isPremium'?)",
        "flows/typos.lua:7: error: router has no 'pushh' (did you mean 'push'?)",
        "flows/typos.lua:8: error: expect(...) has no 'to_eqal' (did you mean 'to_equal'?)",
        "flows/typos.lua:9: error: expect(...) has no 'to_bee' (did you mean 'to_be'?)",
        "flows/typos.lua:10: error: assert is Lua's assert(value, message), not luassert's table",
        "flows/typos.lua:11: error: undeclared global 'pendng' (did you mean 'pending'?)",
        "flows/typos.lua:12: error: route 'detail': field 'id' must be a string, got integer 7",
    ]

    @Test("every planted mistake is reported with file:line in one run, and what was not checked is said")
    func everyMistakeInOnePass() async throws {
        let output = try await CLIRunner.run(["check", "Tests/Fixtures/typo-project"])
        #expect(output.status == 1)
        expectLines(of: output, startingWith: Self.planted)
        #expect(output.lines.contains { $0.hasPrefix("not checked: the style rules and deep links of rules/10-auth.lua") })
        #expect(output.lines.last?.hasSuffix(": 14 errors, 3 warnings") == true, "\(output.stdout)")
        #expect(output.lines.filter { $0.contains(": error: ") || $0.contains(": warning: ") }.count == Self.planted.count)
    }

    @Test("check and graph on a directory that is not a flow project say so")
    func notAProject() async throws {
        let project = try TemporaryProject(["one.lua": "it('x', function() end)\n"])
        defer { project.remove() }
        for command in ["check", "graph", "test"] {
            let output = try await CLIRunner.run([command, project.path])
            #expect(output.status != 0, "\(command)")
            #expect(output.stderr.contains("is not a flow project"), "\(command): \(output.stderr)")
        }
    }

    @Test("style rules run under every combination of boolean facts")
    func factCombinations() async throws {
        let project = try TemporaryProject([
            "routes.lua": """
                return { root = "home", routes = { home = {} }, facts = { isLoggedIn = false, isPremium = true } }
                """,
            "rules/style.lua": """
                flow.style.screen(function(c)
                  if facts.isLoggedIn and not facts.isPremium then
                    return { background = "blu" }
                  end
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 0, "style problems are warnings")
        #expect(output.stdout.contains("rules/style.lua:3: warning: screen style attribute background ignored"), "\(output.stdout)")
        let strict = try await CLIRunner.run(["check", project.path, "--strict"])
        #expect(strict.status == 1)
    }

    @Test("a global one rules file defines is known in the others; a misspelt one is flagged")
    func sharedRuleGlobals() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/10-helpers.lua": "function isPrivate(route) return route.name == \"detail\" end\n",
            "rules/20-guard.lua": """
                flow.precondition("push", function(op)
                  if isPrivate(op.route) and not facts.isLoggedIn then return false, "login" end
                  if isPrivat(op.route) then return false, "typo" end
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(!output.stdout.contains("undeclared global 'isPrivate'"), "\(output.stdout)")
        #expect(output.stdout.contains("rules/20-guard.lua:3: error: undeclared global 'isPrivat' (did you mean 'isPrivate'?)"),
                "\(output.stdout)")
    }
}
