import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowScript
@testable import FlowTesting

/// Exploring a tabbed project: it starts on the first tab, and a tab switch is an operation.
@MainActor
@Suite("Explore: tabs")
struct ExploreTabsTests {
    /// Tests/Fixtures/tabs-app.
    static var directory: URL {
        FlowStackBinary.packageRoot.appendingPathComponent("Tests/Fixtures/tabs-app")
    }

    @Test("a tabbed project starts on its first tab and tries a switch to every tab")
    func tabSwitchesAreOperations() throws {
        let explorer = try FlowExplorer(
            project: try FlowProject(directory: Self.directory), options: .init(depth: 2, maxStack: 2, maxPresented: 1))
        let start = explorer.startState
        #expect(start.selectedTab == "feed")
        let steps = explorer.steps(from: start)
        #expect(steps.contains(.selectTab("search")))
        #expect(steps.contains(.selectTab("profile")))
        #expect(FlowExploreStep.selectTab("search").luaCall == #"router.selectTab("search")"#)
        let switched = explorer.apply(.selectTab("search"), to: start)
        #expect(switched.changed)
        let switchedState = try #require(switched.successor).state
        #expect(switchedState.selectedTab == "search")
        #expect(explorer.key(of: switchedState) != explorer.key(of: start))
        // Signed out, the profile tab is refused and answered with the sign-in sheet.
        let refused = explorer.apply(.selectTab("profile"), to: start)
        #expect(!refused.allowed)
        let refusedState = try #require(refused.successor).state
        #expect(refusedState.selectedTab == "feed")
        #expect(refusedState.stacks.count == 2)
    }
}
