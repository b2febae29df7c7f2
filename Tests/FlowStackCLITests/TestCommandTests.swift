import FlowStackTestSupport
import Foundation
import Testing

@Suite("flowstack test")
struct TestCommandTests {
    @Test("the example project passes, and the last line is the summary")
    func examplePasses() async throws {
        let output = try await CLIRunner.run(["test", "Scripts"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let last = try #require(output.lines.last)
        #expect(last.wholeMatch(of: /(\d+) passed, 0 failed/) != nil, "last line: \(last)")
        let passed = Int(try #require(last.firstMatch(of: /^\d+/)).output) ?? 0
        // Every `it(` of the example's flow files ran and passed: none lost, none skipped.
        #expect(passed == (try DeclaredFlowTests.count(in: CLIRunner.packageRoot.appendingPathComponent("Scripts/flows"))))
        #expect(output.lines.filter { $0.hasPrefix("  ✓ ") }.count == passed)
        #expect(!output.stdout.contains("\u{1B}["), "no colours when standard output is not a terminal")
    }

    @Test("DIR defaults to Scripts")
    func defaultDirectory() async throws {
        let output = try await CLIRunner.run(["test"])
        #expect(output.status == 0)
        #expect(output.lines.last?.hasSuffix("passed, 0 failed") == true)
    }

    @Test("passing and failing flows: a line per test, failures with file:line, expected, actual and stacks")
    func passingAndFailing() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/auth.lua": TemporaryProject.rules,
            "flows/detail.lua": """
                describe("detail", function()
                  it("is guarded", function()
                    local r = router.push({ name = "detail", id = "1" })
                    expect(r.applied).to_be(false)
                    expect(r.redirect.kind).to_be("sheet")
                  end)
                  it("opens for signed-in users", function()
                    app.facts{ isLoggedIn = true }
                    expect(router.push({ name = "detail", id = "1" })).to_equal({ applied = true, kind = "push" })
                  end)
                  it("expects the wrong screen", function()
                    router.push({ name = "detail", id = "1" })
                    expect(router.top()).to_equal({ name = "detail", id = "1" })
                  end)
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path])
        #expect(output.status == 1)
        #expect(output.lines.last == "2 passed, 1 failed")
        #expect(output.lines.contains("  ✓ detail › is guarded"))
        #expect(output.lines.contains("  ✓ detail › opens for signed-in users"))
        #expect(output.lines.contains("  ✗ detail › expects the wrong screen"))
        #expect(output.stdout.contains("flows/detail.lua:13: expect(actual).to_equal(expected)"))
        #expect(output.stdout.contains("expected: { name = \"detail\", id = \"1\" }"))
        #expect(output.stdout.contains("actual:   { name = \"login\" }"))
        #expect(output.stdout.contains("1 root: home"))
        #expect(output.stdout.contains("2 sheet: login"))
    }

    @Test("a flow with a syntax error is reported with file:line and fails the run")
    func syntaxError() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "flows/good.lua": "it(\"passes\", function() expect(router.top().name).to_be(\"home\") end)\n",
            "flows/broken.lua": "it(\"never loads\", function()\n  expect(1).to_be(1)\nend\n",
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("flows/broken.lua:4:"))
        #expect(output.stdout.contains("did not load"))
        #expect(output.lines.contains("  ✓ passes"))
        #expect(output.lines.last == "1 passed, 1 failed")
    }

    @Test("one test is counted as one test, and a failing run exits 1")
    func oneTest() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "flows/one.lua": "it(\"fails\", function() expect(router.top().name).to_be(\"login\") end)\n",
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("1 test in "), "\(output.stdout)")
        #expect(output.lines.last == "0 passed, 1 failed")
    }

    @Test("a rules directory with an error: reported with file:line, no test runs, exit 1")
    func rulesError() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/a.lua": TemporaryProject.rules,
            "rules/b.lua": "flow.guard(\"detail\", function() end)\nlocal x = nil\nx.crash = 1\n",
            "flows/f.lua": "it(\"runs\", function() expect(true).to_be(true) end)\n",
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("error: rules/b.lua:3:"))
        #expect(output.stdout.contains("Not run: 1 test in 1 flow file: the rules did not load"))
        #expect(output.lines.last == "0 passed, 1 failed")
    }

    @Test("a rules file that does not load is said once, with the tests it stopped counted, not listed one by one")
    func rulesErrorSaidOnce() async throws {
        var files = [
            "routes.lua": TemporaryProject.manifest,
            "rules/b.lua": "flow.guard(\"detail\", function() end\n",
        ]
        for index in 1...5 {
            files["flows/f\(index).lua"] = "it(\"one\", function() end)\nit(\"two\", function() end)\n"
        }
        let project = try TemporaryProject(files)
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path])
        #expect(output.status == 1)
        #expect(output.stdout.components(separatedBy: "rules/b.lua:2:").count == 2, "said once:\n\(output.stdout)")
        #expect(!output.stdout.contains("not run: the rules did not load"), "\(output.stdout)")
        #expect(output.lines.contains("Not run: 10 tests in 5 flow files: the rules did not load (fix the error above and run again)"),
                "\(output.stdout)")
        #expect(output.lines.last == "0 passed, 10 failed")
    }

    @Test("a typo in a route name fails with a did-you-mean suggestion")
    func routeTypo() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "flows/typo.lua": """
                it("pushes a typo", function()
                  router.push("detial")
                end)
                it("catches it on purpose", function()
                  expect(function() router.push("hom") end).to_fail("did you mean 'home'")
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("flows/typo.lua:2: router.push: unknown route 'detial' (did you mean 'detail'?)"))
        #expect(output.lines.contains("  ✓ catches it on purpose"))
        #expect(output.lines.last == "1 passed, 1 failed")
    }

    @Test("--filter runs only the matching tests; a filter that matches nothing fails")
    func filter() async throws {
        let output = try await CLIRunner.run(["test", "Scripts", "--filter", "PAYWALL"])
        #expect(output.status == 0)
        let tests = output.lines.filter { $0.hasPrefix("  ✓ ") || $0.hasPrefix("  ✗ ") }
        #expect(!tests.isEmpty)
        #expect(tests.allSatisfy { $0.lowercased().contains("paywall") || $0.contains("premium") || $0.contains("editor") })
        #expect(output.lines.last == "\(tests.count) passed, 0 failed")

        let none = try await CLIRunner.run(["test", "Scripts", "--filter", "no such test anywhere"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no test matches"))
    }

    @Test("a missing project directory says what to do")
    func missingDirectory() async throws {
        let output = try await CLIRunner.run(["test", "/nonexistent/flowstack-project"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("no flow project at /nonexistent/flowstack-project"))
        #expect(output.stderr.contains("Pass the project directory"))
    }

    @Test("run inside a project without a directory, a command says to pass '.'")
    func insideTheProject() async throws {
        let project = try TemporaryProject([
            "rules/a.lua": "flow.guard('detail', function() return false, 'no' end)\n",
            "flows/a.lua": "it('refuses', function() expect(router.push('detail').applied).to_be(false) end)\n",
        ])
        defer { project.remove() }
        for command in [["test"], ["check"], ["explore", "--depth", "1"]] {
            let output = try await CLIRunner.run(command, in: project.url)
            #expect(output.status != 0, "\(command)")
            #expect(output.stderr.contains("no flow project at Scripts (did you mean '.'? it has routes.lua, rules/ or flows/)"),
                    "\(command): \(output.stderr)")
        }
        let inside = try await CLIRunner.run(["test", "."], in: project.url)
        #expect(inside.lines.last == "1 passed, 0 failed", "\(inside.stdout)\(inside.stderr)")
    }

    @Test("expectations fail when they should: every matcher, and to_fail")
    func matchersFail() async throws {
        let failing = [
            "expect(1).to_be(2)", "expect({ 1 }).to_be({ 1 })", "expect({ a = 1 }).to_equal({ a = 1, b = 2 })",
            "expect(nil).to_be_truthy()", "expect(0).to_be_falsy()", "expect(false).to_be_nil()",
            "expect({ \"a\", \"b\" }).to_contain(\"c\")", "expect(\"abc\").to_contain(\"d\")",
            "expect(function() end).to_fail()", "expect(function() error(\"boom\") end).to_fail(\"bang\")",
        ]
        var flow = ""
        for (index, line) in failing.enumerated() { flow += "it(\"fails \(index + 1)\", function() \(line) end)\n" }
        flow += """
            it("passes", function()
              expect({ 1 }).to_equal({ 1 }); expect(1).to_be(1.0); expect({ { name = "a" } }).to_contain({ name = "a" })
              expect("abc").to_contain("b"); expect(function() error("boom") end).to_fail("bo+m")
            end)
            """
        let project = try TemporaryProject(["flows/matchers.lua": flow])
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path])
        #expect(output.lines.last == "1 passed, \(failing.count) failed", "\(output.stdout)")
        for index in 1...failing.count {
            #expect(output.lines.contains("  ✗ fails \(index)"))
            #expect(output.stdout.contains("flows/matchers.lua:\(index): expect("))
        }
    }

    @Test("style warnings of the run are shown before the summary; pending tests are marked")
    func styleWarningsAndPending() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/style.lua": "flow.style.screen(function(c) return { tint = \"purpel\" } end)\n",
            "flows/f.lua": """
                it("styles", function() expect(router.style(1, 0)).never.to_be_nil() end)
                pending("later")
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path])
        #expect(output.status == 0, "warnings do not fail the run")
        #expect(output.lines.contains("Warnings:"), "\(output.stdout)")
        #expect(output.stdout.contains("warning: screen style attribute tint ignored"))
        #expect(output.lines.contains("  - later (pending)"), "\(output.stdout)")
        #expect(output.lines.last == "1 passed, 0 failed")
        #expect(output.stdout.contains("2 tests in") && output.stdout.contains(", 1 pending"))
    }

    @Test("a style rule that fails is reported at its file:line before the summary, and the others still apply")
    func failedStyleRuleIsReported() async throws {
        let project = try TemporaryProject([
            "routes.lua": TemporaryProject.manifest,
            "rules/style.lua": """
                flow.style.screen(function(c) return { tint = "red" } end)
                flow.style.screen(function(c) error("style broke") end)
                """,
            "flows/f.lua": """
                it("styles", function() expect(router.style(1, 0).screen.tint).to_be("red") end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["test", project.path])
        #expect(output.status == 0, "a failed style rule does not fail the run: \(output.stdout)")
        #expect(output.stdout.contains("rules/style.lua:2: error: style rule failed: style broke"), "\(output.stdout)")
        #expect(output.lines.last == "1 passed, 0 failed")
    }
}
