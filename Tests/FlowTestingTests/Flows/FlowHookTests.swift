import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// `pending`, `before_all`/`after_all` (and busted's `setup`/`teardown`), hook failures,
/// selection (tags, shuffle) and `app.reload`.
@MainActor
@Suite("Flow hooks and selection")
struct FlowHookTests {
    @Test("pending tests are listed and reported, not run")
    func pendingTests() async throws {
        let flows = ["p.lua": """
            pending("writes the transfer screen")
            it("has no body yet")
            it("runs", function() end)
            """]
        let report = try await FlowProjectFixture.run(flows)
        #expect(report.results.map(\.isPending) == [true, true, false])
        #expect(report.pendingCount == 2)
        #expect(report.passedCount == 1)
        #expect(report.failedCount == 0)
        #expect(report.succeeded)
        #expect(report.results.first?.line == 1)
        let listed = try FlowProjectFixture.runner(flows).listTests()
        #expect(listed.tests.map(\.isPending) == [true, true, false])
    }

    @Test("before_all/setup run once per block before its first test; after_all/teardown after its last")
    func onceHooks() async throws {
        let report = try await FlowProjectFixture.run(["o.lua": """
            local log = {}
            setup(function() log[#log + 1] = "file setup" end)
            describe("block", function()
              before_all(function()
                log[#log + 1] = "before_all"
                app.host("verify2FA", function() return true end)
              end)
              after_all(function() log[#log + 1] = "after_all" end)
              before_each(function() log[#log + 1] = "before_each" end)
              it("one", function() log[#log + 1] = "one" end)
              it("two", function()
                log[#log + 1] = "two"
                expect(router.push("transfer").applied).to_be(true)
              end)
            end)
            teardown(function() log[#log + 1] = "file teardown" end)
            it("last", function()
              expect(log).to_equal({ "file setup", "before_all", "before_each", "one", "before_each", "two", "after_all" })
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.passedCount == 3)
    }

    @Test("app.reset and app.facts in a before_all set the start of every test of its block, not its navigations")
    func beforeAllSetsTheStart() async throws {
        let report = try await FlowProjectFixture.run(["s.lua": """
            describe("signed in", function()
              before_all(function()
                app.reset{ root = "login", facts = { isLoggedIn = true } }
                app.facts{ isPremium = true }
                router.push("c")
              end)
              it("first", function()
                expect(router.top()).to_equal({ name = "c" })
                expect(facts.isPremium).to_be(true)
              end)
              describe("nested", function()
                it("second", function()
                  expect(router.top()).to_equal({ name = "login" })
                  expect(facts.isLoggedIn).to_be(true)
                  expect(facts.isPremium).to_be(true)
                  expect(#router.history()).to_be(0)
                  app.facts{ isPremium = false }
                end)
              end)
              it("third", function() expect(facts.isPremium).to_be(true) end)
            end)
            it("outside the block", function()
              expect(router.top()).to_equal({ name = "home" })
              expect(facts.isLoggedIn).to_be(false)
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.passedCount == 4)
    }

    @Test("after_all and teardown run after a block's last test that runs, when pending tests come after it")
    func afterAllBeforePending() async throws {
        let report = try await FlowProjectFixture.run(["p.lua": """
            describe("block", function()
              after_all(function() error("block closed") end)
              it("runs", function() end)
              pending("is written later")
              it("has no body yet")
            end)
            teardown(function() print("file teardown") end)
            it("last of the file", function() end)
            pending("after the file's last test")
            """])
        let runs = try #require(report.results.first)
        #expect(runs.failures.map(\.message) == ["after_all failed: block closed"], "\(FlowProjectFixture.failures(report))")
        #expect(report.results.last(where: { !$0.isPending })?.output == ["file teardown"])
        #expect(report.pendingCount == 3)
    }

    @Test("a failing hook says which hook failed; before_all's failure fails every test of its block")
    func hookFailures() async throws {
        let report = try await FlowProjectFixture.run(["f.lua": """
            describe("each", function()
              before_each(function() error("no session") end)
              it("a", function() end)
            end)
            describe("all", function()
              before_all(function() error("no database") end)
              it("b", function() end)
              it("c", function() end)
            end)
            """])
        #expect(report.failedCount == 3)
        let messages = report.results.map { $0.failures.first?.message ?? "" }
        #expect(messages[0] == "before_each failed: no session", "\(messages)")
        #expect(messages[1] == "before_all failed: no database")
        #expect(messages[2] == "before_all failed: no database")
        #expect(report.results[0].failures.first?.line == 2)
    }

    @Test("tags select and exclude tests; a seed shuffles reproducibly")
    func selection() async throws {
        let flows = ["t.lua": """
            describe("payments #slow", function()
              it("pays", function() end)
            end)
            it("logs in #fast", function() end)
            it("logs out", function() end)
            it("four", function() end)
            it("five", function() end)
            it("six", function() end)
            """]
        let runner = try FlowProjectFixture.runner(flows)
        let slow = await runner.run(selection: FlowTestSelection(tags: ["slow"]))
        #expect(slow.results.map(\.name) == ["payments #slow › pays"])
        #expect(slow.results.first?.tags == ["slow"])
        let notSlow = await runner.run(selection: FlowTestSelection(excludedTags: ["slow", "fast"]))
        #expect(notSlow.results.map(\.name) == ["logs out", "four", "five", "six"])
        let first = await runner.run(selection: FlowTestSelection(seed: 7)).results.map(\.name)
        let again = await runner.run(selection: FlowTestSelection(seed: 7)).results.map(\.name)
        let other = await runner.run(selection: FlowTestSelection(seed: 8)).results.map(\.name)
        #expect(first == again)
        #expect(Set(first) == Set(other))
        #expect(first.count == 6)
        let third = await runner.run(selection: FlowTestSelection(seed: 9)).results.map(\.name)
        #expect(first != other || first != third, "three seeds give the same order")
    }

    @Test("app.reload swaps the rules in a flow: the edit takes effect and the generation moves")
    func reload() async throws {
        let report = try await FlowProjectFixture.run(["r.lua": """
            it("reloads", function()
              expect(router.push({ name = "detail", id = "1" }).applied).to_be(false)
              local before = app.generation()
              local generation = app.reload{ ["rules/bank.lua"] = "flow.guard('detail', function() end)" }
              expect(generation).to_be(before + 1)
              expect(router.push({ name = "detail", id = "1" }).applied).to_be(true)
              local h = router.history()
              expect(h[#h].generation).to_be(generation)
              local failed, message = app.reload{ ["rules/bank.lua"] = "flow.guard(" }
              expect(failed).to_be_nil()
              expect(message).to_contain("rules/bank.lua:1")
              expect(app.generation()).to_be(generation)
            end)
            it("adds a file in the rules folder, and refuses one outside it or not in Lua", function()
              expect(app.reload{ ["rules/extra.lua"] = "flow.guard('c', function() return false, 'closed' end)" }).to_be_truthy()
              expect(router.push("c").reason).to_be("closed")
              expect(function() app.reload{ ["bank.lua"] = "" } end)
                .to_fail("app.reload: file 'bank.lua' is not in the rules folder (did you mean 'rules/bank.lua'?)")
              expect(function() app.reload{ ["other/new.lua"] = "" } end)
                .to_fail("app.reload: file 'other/new.lua' is not in the rules folder (did you mean 'rules/new.lua'?)")
              expect(function() app.reload{ ["rules/notes.txt"] = "" } end)
                .to_fail("app.reload: file 'rules/notes.txt' is not a Lua file")
            end)
            it("starts again from the project's rules", function()
              expect(router.push({ name = "detail", id = "1" }).applied).to_be(false)
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.passedCount == 3)
    }

    @Test("every test starts at the project's generation, whatever the tests before it reloaded, in any order")
    func generationAfterReload() async throws {
        let flows = ["g.lua": """
            it("reloads twice", function()
              expect(app.generation()).to_be(1)
              expect(app.reload()).to_be(2)
              expect(app.reload{ ["rules/bank.lua"] = "flow.guard('detail', function() end)" }).to_be(3)
            end)
            it("reloads, and fails to", function()
              expect(app.generation()).to_be(1)
              local failed = app.reload{ ["rules/bank.lua"] = "flow.guard(" }
              expect(failed).to_be_nil()
              expect(app.generation()).to_be(1)
            end)
            it("starts at the project's generation", function()
              expect(app.generation()).to_be(1)
              expect(router.push({ name = "detail", id = "1" }).applied).to_be(false)
              local h = router.history()
              expect(h[#h].generation).to_be(1)
            end)
            """]
        let runner = try FlowProjectFixture.runner(flows)
        for seed in [nil, 1, 2, 3] as [UInt64?] {
            let report = await runner.run(selection: FlowTestSelection(seed: seed))
            #expect(report.failedCount == 0, "seed \(seed.map(String.init) ?? "none"): \(FlowProjectFixture.failures(report))")
            #expect(report.passedCount == 3)
        }
    }
}
