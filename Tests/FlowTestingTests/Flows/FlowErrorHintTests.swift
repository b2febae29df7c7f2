import FlowScript
import FlowTesting
import Foundation
import Testing

/// Errors a flow raises on a global name say what to write instead: the flow global a
/// misspelled name is near, and the flow API for luassert's `assert` table and busted's `spy`.
@MainActor
@Suite("Flow error hints")
struct FlowErrorHintTests {
    @Test("a misspelled global in a test suggests the flow global it is near")
    func misspelledGlobalInTest() async throws {
        let report = try await FlowProjectFixture.run(["g.lua": """
            it("a", function() rooter.push("c") end)
            it("b", function() exepct(1).to_be(1) end)
            it("c", function() expect(zzzzzzzzzz).to_be_nil() end)
            """])
        let messages = report.results.map { $0.failures.first?.message ?? "" }
        #expect(messages == [
            "undeclared global 'rooter' (did you mean 'router'?)",
            "undeclared global 'exepct' (did you mean 'expect'?)",
            "undeclared global 'zzzzzzzzzz'",
        ])
        #expect(report.results.map { $0.failures.first?.line } == [1, 2, 3])
    }

    @Test("a misspelled global at a flow file's top level suggests the flow global it is near")
    func misspelledGlobalAtLoad() async throws {
        let report = try await FlowProjectFixture.run(["d.lua": """
            descibe("paywall", function() end)
            """])
        let error = try #require(report.loadErrors.first)
        #expect(error.message == "attempt to call a nil value (global 'descibe') (did you mean 'describe'?)")
        #expect(error.line == 1)
        #expect(report.results.first?.failures.first?.message == error.message)
        let busted = try await FlowProjectFixture.run(["c.lua": """
            context("paywall", function() end)
            """])
        #expect(busted.loadErrors.first?.message
            == "attempt to call a nil value (global 'context'): busted's context is describe(name, fn) in a flow")
    }

    @Test("luassert's assert.are.same, busted's spy.new, stub and finally say what to write in a flow")
    func bustedHabits() async throws {
        let report = try await FlowProjectFixture.run(["b.lua": """
            it("assert", function() assert.are.same({ 1 }, { 1 }) end)
            it("spy", function() local s = spy.new(function() end) end)
            it("plain assert", function() assert(1 == 2, "one is not two") end)
            it("stub", function() stub(app, "host") end)
            it("finally", function() finally(function() end) end)
            """])
        let messages = report.results.map { $0.failures.first?.message ?? "" }
        #expect(messages[0].hasPrefix(
            "attempt to index a function value (global 'assert'): assert is Lua's assert(value, message), not luassert's table: "
                + "write expect(actual).to_equal(expected)"), "\(messages[0])")
        #expect(messages[1].hasPrefix(
            "attempt to index a function value (global 'spy'): spy is a function, not luassert's table: write local s = spy(fn)"),
            "\(messages[1])")
        #expect(messages[2] == "one is not two")
        #expect(messages[3] == "undeclared global 'stub': busted's stub is app.host(\"name\", fn) in a flow "
            + "(app.host(\"name\", spy(fn)) also records the calls)")
        #expect(messages[4] == "undeclared global 'finally': busted's finally is after_each(fn) in a flow, declared in the test's describe")
    }
}
