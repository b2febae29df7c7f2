import FlowScript
import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
import FlowTesting

/// An app's own route type, as the article's Swift example has one.
private enum AppRoute: Codable, Hashable, FlowRouteConvertible {
    case home
    case editor(id: String)
    case paywall
}

/// The "Flow Tests" article's examples, as written: the paywall flow against the example app's
/// rules, and the Swift test running flows against an app's route type and rules engine.
@Suite("FlowTests article")
@MainActor
struct FlowTestsArticleTests {
    /// The article's first example, word for word.
    static let paywallFlow = """
        -- flows/paywall.lua
        describe("paywall", function()
          before_each(function()
            app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true } }
          end)

          it("sends free users to the paywall", function()
            local r = router.push({ name = "editor", id = "42" })
            expect(r.applied).to_be(false)
            expect(r.redirect.kind).to_be("fullScreenCover")
            expect(router.top()).to_equal({ name = "paywall" })
            expect(router.history()).to_match_steps{
              "push editor redirected: premium required",
              "fullScreenCover paywall",
            }
          end)
        end)
        """

    /// A project in a temporary directory: the example app's `routes.lua` and `rules/`, and `flows`.
    static func project(copyingRulesOf source: URL, flows: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowtesting-article-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("flows"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source.appendingPathComponent("routes.lua"), to: directory.appendingPathComponent("routes.lua"))
        try FileManager.default.copyItem(at: source.appendingPathComponent("rules"), to: directory.appendingPathComponent("rules"))
        for (name, text) in flows {
            try Data(text.utf8).write(to: directory.appendingPathComponent("flows/\(name)"))
        }
        return directory
    }

    @Test("the paywall flow passes against the example app's rules; with coverage on, the report holds it")
    func paywallExample() async throws {
        let project = try Self.project(
            copyingRulesOf: FlowStackBinary.packageRoot.appendingPathComponent("Scripts"), flows: ["paywall.lua": Self.paywallFlow])
        defer { try? FileManager.default.removeItem(at: project) }
        let report = try await FlowTestRunner.run(project: project, options: .init(coverage: true))
        #expect(report.results.map(\.name) == ["paywall › sends free users to the paywall"])
        #expect(report.succeeded, "\(report.issues)")
        #expect(report.summary == "1 passed, 0 failed")
        let coverage = try #require(report.coverage, "Options.coverage on: the report holds the rules coverage")
        #expect(coverage.contains { $0.name == "rules/20-paywall.lua" && $0.linesHit > 0 }, "\(coverage.map(\.name))")
    }

    @Test("from Swift tests: flows run against the app's route type and engine; each failure has its file and line")
    func swiftTestsExample() async throws {
        let scripts = FileManager.default.temporaryDirectory.appendingPathComponent("flowtesting-article-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scripts) }
        let rulesURL = scripts.appendingPathComponent("rules"), flowsURL = scripts.appendingPathComponent("flows")
        try FileManager.default.createDirectory(at: rulesURL, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: flowsURL, withIntermediateDirectories: true)
        try Data("""
            return { root = "home", routes = { home = {}, paywall = {}, editor = { params = { id = "string" } } },
                     facts = { isPremium = false } }
            """.utf8).write(to: scripts.appendingPathComponent("routes.lua"))
        try Data("""
            flow.guard("editor", function(op)
              if not facts.isPremium then return flow.redirect("fullScreenCover", "paywall", "premium required") end
            end)
            """.utf8).write(to: rulesURL.appendingPathComponent("paywall.lua"))
        try Data("""
            it("sends free users to the paywall", function()
              expect(router.push({ name = "editor", id = "42" }).applied).to_be(false)
              expect(router.top()).to_equal({ name = "paywall" })
            end)
            """.utf8).write(to: flowsURL.appendingPathComponent("paywall.lua"))
        let manifest = try FlowManifest.load(contentsOf: scripts.appendingPathComponent("routes.lua"))

        // The article's test, as written.
        let engine = try FlowRulesEngine<AppRoute>(directory: rulesURL, configuration: .init(manifest: manifest))
        let report = try await FlowTestRunner.run(flowsIn: flowsURL, rules: engine)
        for issue in report.issues {
            Issue.record(
                Comment(rawValue: issue.message),
                sourceLocation: SourceLocation(fileID: "Flows/\(issue.filePath)", filePath: issue.filePath,
                                               line: issue.line, column: 1))
        }
        #expect(report.succeeded, "\(report.summary)")

        // A failing expectation, and a route the app cannot build: each an issue at its flow line.
        try Data("""
            it("expects the editor", function()
              router.push({ name = "editor", id = "42" })
              expect(router.top()).to_equal({ name = "editor", id = "42" })
            end)
            it("names a route the app has no case for", function()
              router.setRoot({ name = "editor" })
            end)
            """.utf8).write(to: flowsURL.appendingPathComponent("wrong.lua"))
        let failing = try await FlowTestRunner.run(flowsIn: flowsURL, rules: engine)
        #expect(!failing.succeeded && failing.summary == "1 passed, 2 failed")
        let wrong = flowsURL.appendingPathComponent("wrong.lua").standardizedFileURL.path
        #expect(failing.issues.count == 2, "\(failing.issues)")
        #expect(failing.issues.map(\.filePath) == [wrong, wrong])
        #expect(failing.issues.map(\.line) == [3, 6], "\(failing.issues)")
        #expect(failing.issues.first?.message.hasPrefix("expects the editor: ") == true, "\(failing.issues)")
    }
}
