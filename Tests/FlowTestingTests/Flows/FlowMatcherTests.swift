import FlowScript
import FlowStackCore
import Foundation
import Testing

/// The matchers a busted/luassert user reaches for, their negations, and spies.
@MainActor
@Suite("Flow matchers")
struct FlowMatcherTests {
    @Test("the new matchers hold and their negations hold")
    func matchersHold() async throws {
        let report = try await FlowProjectFixture.run(["m.lua": """
            it("matches", function()
              expect("push editor").to_match("^push %a+$")
              expect("push").never.to_match("^pop")
              expect({ 1, 2, 3 }).to_have_length(3)
              expect("abc").to_have_length(3)
              expect({}).not_to_have_length(1)
              expect(3).to_be_greater_than(2)
              expect(2).to_be_less_than(3)
              expect(3).to_be_at_least(3)
              expect(3).to_be_at_most(3)
              expect(2).never.to_be_greater_than(2)
              expect({}).to_be_a("table")
              expect(1).to_be_a("integer")
              expect(1.5).to_be_a("float")
              expect("x").never.to_be_a("number")
              expect(1).never.to_equal(2)
              expect(1).not_to_be(2)
              expect(nil).never.to_be_truthy()
              expect({ "a" }).never.to_contain("b")
              expect(function() end).never.to_fail()
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.passedCount == 1)
    }

    @Test("a negated matcher that fails says never, with the value")
    func negationFails() async throws {
        let report = try await FlowProjectFixture.run(["n.lua": """
            it("a", function() expect(1).never.to_equal(1) end)
            it("b", function() expect("abc").not_to_match("b") end)
            it("c", function() expect(3).to_be_greater_than(4) end)
            it("d", function() expect({}).to_have_length(2) end)
            it("e", function() expect(1).to_be_a("string") end)
            it("f", function() expect(1).never.to_bee(2) end)
            """])
        #expect(report.failedCount == 6)
        let messages = report.results.map { $0.failures.first?.message ?? "" }
        #expect(messages[0] == "expect(actual).never.to_equal(expected): the values are deeply equal")
        #expect(report.results[0].failures.first?.expected == "not 1")
        #expect(messages[1] == "expect(actual).never.to_match(pattern): the string matches")
        #expect(messages[2] == "expect(actual).to_be_greater_than(x): the value is not > 4")
        #expect(messages[3] == "expect(actual).to_have_length(n): the length is 0")
        #expect(messages[4] == "expect(actual).to_be_a(typeName): the value is a number")
        #expect(messages[5].contains("has no matcher 'to_bee' (did you mean 'to_be'?)"), "\(messages[5])")
        #expect(report.results.allSatisfy { $0.failures.first?.line != nil })
    }

    @Test("app.calls records the host calls of a test; spies record theirs")
    func spies() async throws {
        let report = try await FlowProjectFixture.run(["s.lua": """
            describe("transfer", function()
              before_each(function()
                app.host("verify2FA", function(name, tries) return tries == 3 end)
              end)
              it("asks for 2FA once", function()
                expect(app.calls("verify2FA")).to_have_length(0)
                router.push("transfer")
                expect(app.calls("verify2FA")).to_have_length(1)
                expect(app.calls("verify2FA")).to_have_been_called_with("transfer", 3)
                expect(app.calls("verify2FA")).to_have_been_called_times(1)
                expect(app.calls("verify2FA")[1]).to_equal({ "transfer", 3 })
              end)
              it("starts each test with no calls", function()
                expect(app.calls("verify2FA")).never.to_have_been_called()
              end)
              it("spies on a function", function()
                local s = spy(function(x) return x * 2 end)
                expect(s(2)).to_be(4)
                s(5)
                expect(s).to_have_been_called_times(2)
                expect(s).to_have_been_called_with(5)
                expect(s).never.to_have_been_called_with(6)
                expect(#s).to_be(2)
              end)
              it("names an unknown host", function()
                expect(function() app.calls("verify2fa") end).to_fail("did you mean 'verify2FA'")
              end)
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.passedCount == 4)
    }

    @Test("to_match_steps states the history in words")
    func historySteps() async throws {
        let report = try await FlowProjectFixture.run(["h.lua": """
            it("matches", function()
              router.push("c")
              router.push({ name = "detail", id = "1" })
              router.pop()
              expect(router.history()).to_match_steps{
                "push c",
                "push detail blocked: login required",
                "pop",
              }
              expect(router.history()).never.to_match_steps{ "push c" }
            end)
            it("shows what differs", function()
              router.push("c")
              expect(router.history()).to_match_steps{ "push d" }
            end)
            """])
        #expect(report.passedCount == 1, "\(FlowProjectFixture.failures(report))")
        let failure = try #require(report.results.last?.failures.first)
        #expect(failure.diff == [#"step 1: expected "push d", got "push c""#])
    }

    @Test("in expected steps, refused and failed stand for blocked, with a reason or without")
    func stepSynonyms() async throws {
        let report = try await FlowProjectFixture.run(["h.lua": """
            it("matches", function()
              router.push({ name = "detail", id = "1" })
              for _, word in ipairs({ "blocked", "refused", "failed", "redirected" }) do
                expect(router.history()).to_match_steps{ "push detail " .. word }
                expect(router.history()).to_match_steps{ "push detail " .. word .. ": login required" }
              end
              expect(router.history()).never.to_match_steps{ "push detail" }
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.passedCount == 1)
    }

    @Test("to_be on two tables with the same contents points to to_equal; call counts read as English")
    func bustedUserMessages() async throws {
        let report = try await FlowProjectFixture.run(["b.lua": """
            it("a", function() expect(router.top()).to_be({ name = "home" }) end)
            it("b", function() expect({ 1 }).to_be({ 2 }) end)
            it("c", function() local s = spy(); s(1); expect(s).to_have_been_called_times(2) end)
            it("d", function() local s = spy(); s(1); expect(s).never.to_have_been_called() end)
            """])
        let failures = report.results.compactMap(\.failures.first)
        #expect(failures.map(\.message) == [
            "expect(actual).to_be(expected): two tables with the same contents are still two tables: "
                + "to_be compares with rawequal, to_equal(expected) compares contents",
            "expect(actual).to_be(expected): the values differ",
            "expect(spy).to_have_been_called_times(n): it was called 1 time",
            "expect(spy).never.to_have_been_called(): it was called 1 time",
        ])
        #expect(failures[2].expected == "2 calls")
        #expect(failures[2].actual == "1 call: { { 1 } }")
    }

    @Test("a diff cut at 12 differences ends with one '...', also when the cut is inside a nested table")
    func diffCut() async throws {
        let report = try await FlowProjectFixture.run(["d.lua": """
            it("nested", function()
              local expected, actual = { x = {}, y = 1 }, { x = {}, y = 2 }
              for i = 1, 20 do
                expected.x[string.format("k%02d", i)] = i
                actual.x[string.format("k%02d", i)] = i + 100
              end
              expect(actual).to_equal(expected)
            end)
            """])
        let diff = try #require(report.results.first?.failures.first?.diff)
        #expect(diff.count == 13, "\(diff)")
        #expect(diff.first == ".x.k01: expected 1, got 101")
        #expect(diff.last == "...")
        #expect(diff.filter { $0 == "..." }.count == 1)
    }

    @Test("an unknown not_to_ matcher suggests the negated name")
    func unknownNegatedMatcher() async throws {
        let report = try await FlowProjectFixture.run(["u.lua": """
            it("a", function() expect(1).not_to_equals(2) end)
            """])
        let message = try #require(report.results.first?.failures.first?.message)
        #expect(message.hasPrefix("expect(...) has no matcher 'not_to_equals' (did you mean 'not_to_equal'?);"), "\(message)")
        #expect(report.results.first?.failures.first?.line == 1)
    }

    @Test("a chained matcher (luassert's and chai's to.equal, is.truthy) says matchers are one name")
    func chainedMatcher() async throws {
        let report = try await FlowProjectFixture.run(["c.lua": """
            it("to", function() expect(1).to.equal(1) end)
            it("is", function() expect(true).is.truthy() end)
            """])
        for (index, result) in report.results.enumerated() {
            let message = try #require(result.failures.first?.message)
            #expect(message.contains("(matchers are one name, not a chain: write expect(v).to_equal(x)"), "\(message)")
            #expect(result.failures.first?.line == index + 1)
        }
        #expect(report.results.count == 2)
    }

    @Test("a table mismatch shows a structural diff; a helper's failure shows the call site")
    func diffAndTraceback() async throws {
        let report = try await FlowProjectFixture.run(["t.lua": """
            local function expectTop(route)
              expect(router.top()).to_equal(route)
            end
            it("diffs", function()
              expect({ name = "detail", id = "1", extra = { a = 1, b = "a long string to make this table long enough" }, n = 2 })
                .to_equal({ name = "detail", id = "2", extra = { a = 1, b = "a long string to make this table long enough" }, m = 3 })
            end)
            it("traces", function()
              router.push("c")
              expectTop("d")
            end)
            it("raises an error object", function()
              error(setmetatable({}, { __tostring = function() return "custom failure" end }))
            end)
            it("raises a table", function()
              error({ code = 42 })
            end)
            """])
        #expect(report.failedCount == 4)
        let diff = try #require(report.results[0].failures.first)
        #expect(diff.diff == [#".id: expected "2", got "1""#, ".m: missing, expected 3", ".n: not expected, got 2"], "\(diff.diff)")
        #expect(diff.description.contains("differences (expected, got):"))
        let traced = try #require(report.results[1].failures.first)
        #expect(traced.line == 2)
        #expect(traced.traceback == ["flows/t.lua:10"], "\(traced.traceback)")
        #expect(traced.description.contains("called from flows/t.lua:10"))
        let custom = try #require(report.results[2].failures.first)
        #expect(custom.message == "custom failure", "\(custom.message)")
        #expect(custom.line == 13)
        let table = try #require(report.results[3].failures.first)
        #expect(table.message == "error object { code = 42 }", "\(table.message)")
    }
}
