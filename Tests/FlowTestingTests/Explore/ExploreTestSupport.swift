import FlowScript
import FlowStackTestSupport
import FlowTesting
import FlowStackCore
import Foundation

/// Projects for the exploration tests: the five-problem shop fixture and small ones in memory.
@MainActor
enum ExploreFixtures {
    /// The package root.
    static let packageRoot = FlowStackBinary.packageRoot

    /// Tests/Fixtures/explore-shop.
    static var shopDirectory: URL { packageRoot.appendingPathComponent(ShopExploration.directory) }

    /// The bounds the shop is explored with in tests, those `flowstack explore` is run with
    /// (`ShopExploration`): every planted problem is within them.
    static let shopBounds = FlowExplorer.Options(
        depth: ShopExploration.depth, maxStack: ShopExploration.maxStack, maxPresented: ShopExploration.maxPresented,
        maxStates: ShopExploration.maxStates)

    /// The shop explored once (the tests share it).
    static let shopExploration = Task { @MainActor in
        let explorer = try! FlowExplorer(project: try! FlowProject(directory: shopDirectory), options: shopBounds)
        return await explorer.run()
    }

    /// The shop's report, explored once.
    static var shopReport: FlowExploreReport {
        get async { await shopExploration.value }
    }

    /// A project written to a fresh temporary directory.
    static func project(
        manifest: String, rules: [String: String], explore: [String: String] = [:]
    ) throws -> FlowProject {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-explore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("rules"), withIntermediateDirectories: true)
        try manifest.write(to: directory.appendingPathComponent("routes.lua"), atomically: true, encoding: .utf8)
        for (name, text) in rules {
            try text.write(to: directory.appendingPathComponent("rules/\(name)"), atomically: true, encoding: .utf8)
        }
        if !explore.isEmpty {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("explore"), withIntermediateDirectories: true)
            for (name, text) in explore {
                try text.write(to: directory.appendingPathComponent("explore/\(name)"), atomically: true, encoding: .utf8)
            }
        }
        return try FlowProject(directory: directory)
    }

    /// The shop's rules with the five mistakes fixed.
    static func fixedShopRules() throws -> [FlowRulesSource] {
        try FlowRulesSource.directory(shopDirectory.appendingPathComponent("rules")).map { source in
            var text = source.text
            text = text.replacingOccurrences(of: "if facts.tier == \"gold\" then", with: "if facts.tier == \"pro\" then")
            text = text.replacingOccurrences(of: "if account.purchases == 0 then", with: "if account == nil or account.purchases == 0 then")
            text = text.replacingOccurrences(
                of: "if op.kind ~= \"popTo\" and facts.isBanned then\n    return flow.redirect(\"setRoot\", \"home\"",
                with: "if op.kind ~= \"popTo\" and not facts.isBanned then\n    return flow.redirect(\"setRoot\", \"home\"")
            text = text.replacingOccurrences(
                of: "local root = stacks[1]\n  if root.routes[#root.routes].name == \"cart\" and not facts.isLoggedIn then",
                with: "if not facts.isLoggedIn then")
            text = text.replacingOccurrences(
                of: "LEAVING[op.kind] and front.routes[1].name",
                with: "LEAVING[op.kind] and op.kind ~= \"dismiss\" and front.routes[1].name")
            return FlowRulesSource(name: source.name, text: text)
        }
    }
}
