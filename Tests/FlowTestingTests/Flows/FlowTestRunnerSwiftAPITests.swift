import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// An app's own route type, as the Swift API's users have one.
private enum ShopRoute: Codable, Hashable, FlowRouteConvertible {
    case home
    case product(id: String)
    case cart
    case login
}

/// Flow files in a temporary `flows/` directory.
private struct FlowFiles {
    let directory: URL

    init(_ files: [String: String]) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowscript-flows-\(UUID().uuidString)/flows")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }
}

@MainActor
@Suite("FlowTestRunner Swift API")
struct FlowTestRunnerSwiftAPITests {
    static let manifestSource = """
        return {
          root = "home",
          routes = { home = {}, cart = {}, login = {}, product = { params = { id = "string" } } },
          facts = { isLoggedIn = false },
        }
        """

    static let rules = [
        FlowRulesSource(name: "rules/cart.lua", text: """
            flow.guard("cart", function(op)
              if not facts.isLoggedIn then return flow.redirect("sheet", "login", "login required") end
              if not host.checkStock() then return false, "out of stock" end
            end)
            """),
    ]

    fileprivate static func engine() throws -> FlowRulesEngine<ShopRoute> {
        let manifest = try FlowManifest.parse(source: manifestSource)
        return try FlowRulesEngine<ShopRoute>(sources: rules, configuration: FlowRulesConfiguration(manifest: manifest))
    }

    @Test("runs flows against the app's route type and rules engine")
    func appRouteType() async throws {
        let flows = try FlowFiles([
            "cart.lua": """
                describe("cart", function()
                  before_each(function() app.host("checkStock", function() return true end) end)
                  it("needs a login", function()
                    local r = router.push("cart")
                    expect(r.redirect.kind).to_be("sheet")
                    expect(router.top()).to_equal({ name = "login" })
                  end)
                  it("opens when signed in and in stock", function()
                    app.facts{ isLoggedIn = true }
                    router.push({ name = "product", id = "7" })
                    expect(router.push("cart").applied).to_be(true)
                    expect(router.stacks()[1].routes).to_equal({ { name = "home" }, { name = "product", id = "7" }, { name = "cart" } })
                  end)
                  it("waits for stock through the async queue", function()
                    app.facts{ isLoggedIn = true }
                    app.host("checkStock", function() app.wait(2) return false end)
                    local r = router.pushAsync("cart")
                    expect(r).to_equal({ applied = false, kind = "push", reason = "out of stock" })
                    expect(router.history()[1].op.async).to_be(true)
                  end)
                end)
                """,
        ])
        defer { flows.remove() }
        let report = try await FlowTestRunner.run(flowsIn: flows.directory, rules: try Self.engine())
        #expect(report.results.map(\.name) == [
            "cart › needs a login", "cart › opens when signed in and in stock", "cart › waits for stock through the async queue",
        ])
        #expect(report.failedCount == 0, "\(report.issues)")
        #expect(report.succeeded)
        #expect(report.results.allSatisfy { $0.file == "flows/cart.lua" })
    }

    @Test("a stub that waits fails closed in a synchronous navigation")
    func waitingStubInSyncNavigation() async throws {
        let flows = try FlowFiles([
            "sync.lua": """
                it("fails closed", function()
                  app.facts{ isLoggedIn = true }
                  app.host("checkStock", function() app.wait(1) return true end)
                  local r = router.push("cart")
                  expect(r.applied).to_be(false)
                  expect(r.reason).to_contain("rules/cart.lua:3: host.checkStock is asynchronous")
                end)
                it("works through pushAsync", function()
                  app.facts{ isLoggedIn = true }
                  app.host("checkStock", function() app.wait(1) return true end)
                  expect(router.pushAsync("cart").applied).to_be(true)
                end)
                it("reports a host the test did not stub", function()
                  app.facts{ isLoggedIn = true }
                  expect(router.push("cart").reason).to_contain("app.host(\\"checkStock\\"")
                end)
                """,
        ])
        defer { flows.remove() }
        let report = try await FlowTestRunner.run(flowsIn: flows.directory, rules: try Self.engine())
        #expect(report.summary == "3 passed, 0 failed", "\(report.issues)")
    }

    @Test("a stub set at a flow file's top level applies to every test; a test's own stub does not leak")
    func stubScopes() async throws {
        let flows = try FlowFiles([
            "stubs.lua": """
                app.host("checkStock", function() return true end)
                before_each(function() app.facts{ isLoggedIn = true } end)
                it("uses the file's stub", function() expect(router.push("cart").applied).to_be(true) end)
                it("overrides it", function()
                  app.host("checkStock", function() return false end)
                  expect(router.push("cart").reason).to_be("out of stock")
                end)
                it("gets the file's stub back", function() expect(router.push("cart").applied).to_be(true) end)
                """,
        ])
        defer { flows.remove() }
        let report = try await FlowTestRunner.run(flowsIn: flows.directory, rules: try Self.engine())
        #expect(report.summary == "3 passed, 0 failed", "\(report.issues)")
    }

    @Test("an expectation that fails inside a host stub fails the test, at the stub's line")
    func expectationInStub() async throws {
        let flows = try FlowFiles([
            "stub.lua": """
                it("checks the stub's arguments", function()
                  app.facts{ isLoggedIn = true }
                  app.host("checkStock", function(...)
                    expect(select("#", ...)).to_be(1)
                    return true
                  end)
                  router.push("cart")
                end)
                """,
        ])
        defer { flows.remove() }
        let report = try await FlowTestRunner.run(flowsIn: flows.directory, rules: try Self.engine())
        let failure = try #require(report.results.first?.failures.first)
        #expect(failure.kind == .expectation)
        #expect(failure.line == 4)
        #expect(failure.expected == "1")
        #expect(failure.actual == "0")
        #expect(failure.message.contains("caught before the test saw it"))
    }

    @Test("failures become issues with the flow file's absolute path and line")
    func issues() async throws {
        let flows = try FlowFiles([
            "broken.lua": "it(\"never loads\", function(\n",
            "failing.lua": """
                it("expects the cart", function()
                  router.push("cart")
                  expect(router.top()).to_equal({ name = "cart" })
                end)
                it("names a product the app cannot build", function()
                  router.push({ name = "product" , id = "1", size = "XL" })
                end)
                """,
        ])
        defer { flows.remove() }
        let report = try await FlowTestRunner.run(flowsIn: flows.directory, rules: try Self.engine())
        #expect(report.summary == "0 passed, 3 failed")
        #expect(report.loadErrors.map(\.file) == ["flows/broken.lua"])
        let issues = report.issues
        #expect(issues.count == 3)
        let failing = flows.directory.appendingPathComponent("failing.lua").path
        #expect(issues.contains { $0.filePath == failing && $0.line == 3 && $0.message.contains("expected: { name = \"cart\" }") })
        #expect(issues.contains { $0.filePath == failing && $0.line == 6 && $0.message.contains("has no payload field 'size'") })
        #expect(issues.contains { $0.filePath.hasSuffix("flows/broken.lua") && $0.line == 2 })
        let expectation = try #require(report.results.first { $0.name == "expects the cart" }?.failures.first)
        #expect(expectation.kind == .expectation)
        #expect(expectation.actual == "{ name = \"login\" }")
        #expect(expectation.stacks == ["1 root: home", "2 sheet: login"])
    }

    @Test("lists tests without running them, nested describe names and lines included")
    func listing() throws {
        let engine = try Self.engine()
        let project = FlowProject(
            directory: URL(fileURLWithPath: "/tmp"), manifest: engine.configuration.manifest, rules: [],
            flows: [FlowRulesSource(name: "flows/a.lua", text: """
                describe("outer", function()
                  describe("inner", function()
                    it("one", function() error("not run") end)
                  end)
                  it("two", function() end)
                end)
                """)])
        let runner = FlowTestRunner(project: project, engine: engine)
        let listing = runner.listTests()
        #expect(listing.loadErrors.isEmpty)
        #expect(listing.tests.map(\.name) == ["outer › inner › one", "outer › two"])
        #expect(listing.tests.map(\.line) == [3, 5])
        #expect(runner.listTests(filter: "INNER").tests.count == 1)
    }

    @Test("hooks run outer before_each first, after_each inner first, and after a failure")
    func hookOrder() async throws {
        let flows = try FlowFiles([
            "hooks.lua": """
                local log = {}
                before_each(function() log[#log + 1] = "outer before" end)
                after_each(function() log[#log + 1] = "outer after" end)
                describe("d", function()
                  before_each(function() log[#log + 1] = "inner before" end)
                  after_each(function() log[#log + 1] = "inner after" end)
                  it("fails", function() log[#log + 1] = "body"; error("stop") end)
                end)
                it("sees the order", function()
                  expect(log).to_equal({ "outer before", "inner before", "body", "inner after", "outer after", "outer before" })
                end)
                """,
        ])
        defer { flows.remove() }
        let report = try await FlowTestRunner.run(flowsIn: flows.directory, rules: try Self.engine())
        #expect(report.results.map(\.passed) == [false, true], "\(report.issues)")
        #expect(report.results[0].failures.first?.message == "stop")
    }
}
