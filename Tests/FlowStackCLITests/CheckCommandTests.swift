import FlowStackTestSupport
import Foundation
import Testing

@Suite("flowstack check")
struct CheckCommandTests {
    @Test("the example project checks clean")
    func exampleIsClean() async throws {
        let output = try await CLIRunner.run(["check", "Scripts"])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.lines.last?.hasPrefix("checked Scripts: 9 rules files, 13 flow files") == true)
        #expect(output.lines.last?.hasSuffix(": 0 errors, 0 warnings") == true)
    }

    @Test("reports names the manifest does not declare, with file:line and did you mean")
    func manifestNames() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": """
                flow.precondition("push", function(op, stacks, ctx)
                  if op.route.name == "detial" and not facts.isLogedIn then return false, "no" end
                end)
                """,
            "flows/f.lua": """
                it("uses names", function()
                  router.sheet("logn")
                  router.push({ name = "detail", id = 7 })
                  router.showDialog("opps")
                  app.facts{ isLogedIn = true }
                  router.pushh("home")
                  expect(1).to_eqal(1)
                  expect(function() router.push("hme") end).to_fail()
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let expected = [
            "flows/f.lua:2: error: unknown route 'logn' (did you mean 'login'?)",
            "flows/f.lua:3: error: route 'detail': field 'id' must be a string, got integer 7",
            "flows/f.lua:4: error: unknown dialog 'opps' (did you mean 'oops'?)",
            "flows/f.lua:5: error: unknown fact 'isLogedIn' (did you mean 'isLoggedIn'?)",
            "flows/f.lua:6: error: router has no 'pushh' (did you mean 'push'?)",
            "flows/f.lua:7: error: expect(...) has no 'to_eqal' (did you mean 'to_equal'?)",
            "rules/auth.lua:2: error: unknown route 'detial' (did you mean 'detail'?)",
            "rules/auth.lua:2: error: unknown fact 'isLogedIn' (did you mean 'isLoggedIn'?)",
        ]
        expectLines(of: output, startingWith: expected)
        #expect(!output.stdout.contains("'hme'"), "mistakes inside expect(...).to_fail are on purpose")
        #expect(output.lines.last?.hasSuffix(": 8 errors, 0 warnings") == true, "\(output.stdout)")
    }

    @Test("a project directory that is not there, but is near one that is, gets did you mean")
    func directoryTypo() async throws {
        for command in ["check", "test", "types"] {
            let output = try await CLIRunner.run([command, "Scrpts"])
            #expect(output.status == 1)
            #expect(output.stderr.contains("no flow project at Scrpts (did you mean 'Scripts'?)"), "\(command): \(output.stderr)")
        }
        let far = try await CLIRunner.run(["check", "Tests/Fixtures/nothing-like-it-here"])
        #expect(far.status == 1)
        #expect(!far.stderr.contains("did you mean"), "\(far.stderr)")
    }

    @Test("checks app.reset's root and facts like every other name")
    func resetNames() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "flows/f.lua": """
                before_each(function()
                  app.reset{ root = "hom", facts = { isLogedIn = true } }
                end)
                it("starts", function()
                  app.reset{ facts = { isLoggedIn = true }, root = "home" }
                  app.reset({ root = { name = "detial", id = "7" } })
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let expected = [
            "flows/f.lua:2: error: unknown route 'hom' (did you mean 'home'?)",
            "flows/f.lua:2: error: unknown fact 'isLogedIn' (did you mean 'isLoggedIn'?)",
            "flows/f.lua:6: error: unknown route 'detial' (did you mean 'detail'?)",
        ]
        expectLines(of: output, startingWith: expected)
        #expect(output.lines.last?.hasSuffix(": 3 errors, 0 warnings") == true, "\(output.stdout)")
    }

    @Test("reports a redirect or a deep link step that opens a route in a way its opens declaration excludes")
    func declaredOpenings() async throws {
        let project = try TemporaryProject([
            "routes.lua": """
                return {
                  root = "home",
                  routes = { home = {}, login = { opens = { "sheet" } }, player = { opens = { "fullScreenCover", "push" } } },
                  facts = { isLoggedIn = false },
                }
                """,
            "rules/r.lua": """
                flow.guard("player", function(op)
                  if not facts.isLoggedIn then return flow.redirect("push", "login", "sign in first") end
                end)
                flow.guard("home", function(op)
                  if not facts.isLoggedIn then return flow.redirect("sheet", "login", "sign in first") end
                end)
                flow.deeplink("/play", function(p)
                  return { flow.op("sheet", "player"), flow.op("push", "player") }
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        expectLines(of: output, startingWith: [
            "rules/r.lua:2: error: flow.redirect opens 'login' with push, but routes.lua declares it opens only with \"sheet\" "
                + "(login = { opens = { \"sheet\" } }): explore and diff never try push login; add \"push\" to its opens, "
                + "or open it with that operation",
            "rules/r.lua:8: error: flow.op opens 'player' with sheet, but routes.lua declares it opens only with "
                + "\"fullScreenCover\", \"push\" (player = { opens = { \"fullScreenCover\", \"push\" } }): explore and diff never "
                + "try sheet player; add \"sheet\" to its opens, or open it with one of those",
        ])
        #expect(output.lines.last?.hasSuffix(": 2 errors, 0 warnings") == true, "\(output.stdout)")
    }

    @Test("reports load errors of rules and flows with file:line")
    func loadErrors() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/bad.lua": "flow.guard(\"nowhere\", function() end)\n",
            "flows/bad.lua": "describe(\"x\", function()\n  it(\"y\"\nend)\n",
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("rules/bad.lua:1: error: unknown route 'nowhere'"))
        #expect(output.stdout.contains("flows/bad.lua:3: error:"))
    }

    @Test("reports unknown style attributes and bad values as warnings at the rule that sets them")
    func styles() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/style.lua": """
                flow.style.screen(function(c)
                  if c.screenRoute.name == "detail" then
                    return {
                      navigationBarHiden = true,
                      tint = "#GG0000",
                    }
                  end
                end)
                flow.style.modal(function(c)
                  if c.presentation == "sheet" then return { presentationDetents = { "half" } } end
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 0, "style problems are warnings (the spec's); --strict fails on them")
        #expect(output.stdout.contains("rules/style.lua:4: warning: screen style attribute navigationBarHiden ignored: unknown style attribute (did you mean 'navigationBarHidden'?)"))
        #expect(output.stdout.contains("rules/style.lua:5: warning: screen style attribute tint ignored"))
        #expect(output.stdout.contains("rules/style.lua:10: warning: modal style attribute presentationDetents ignored: bad detent \"half\""))
        #expect(try await CLIRunner.run(["check", project.path, "--strict"]).status == 1)
    }

    @Test("reports shadowed and duplicate deep-link patterns as warnings; --strict fails on them")
    func deepLinkDiagnostics() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/links.lua": """
                flow.deeplink("/detail/:id", function(p) return { flow.op("push", { name = "detail", id = p.id }) } end)
                flow.deeplink("/detail/:other", function(p) return nil end)
                flow.deeplink("/*", function(p) return nil end)
                flow.deeplink("/login", function(p) return { flow.op("setRoot", "login") } end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 0, "warnings alone pass")
        #expect(output.stdout.contains("rules/links.lua:2: warning:"))
        #expect(output.stdout.contains("rules/links.lua:4: warning:"))
        #expect(output.lines.last?.hasSuffix(": 0 errors, 2 warnings") == true, "\(output.stdout)")
        let strict = try await CLIRunner.run(["check", project.path, "--strict"])
        #expect(strict.status == 1)
    }
}
