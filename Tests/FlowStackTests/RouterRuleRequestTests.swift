import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// The one contract between a router and its rules: the request the router builds, and the
/// decision it turns back into its own route type.
@MainActor
struct RouterRuleRequestTests {
    typealias Hook = ScriptedRulesHook<TestRoute>

    @Test func kindsAreNumberedByTheirPositionInTheContractList() {
        for (offset, kind) in FlowRuleKind.allCases.enumerated() {
            #expect(kind.position == offset + 1, "\(kind)")
        }
        #expect(FlowRuleKind.allCases.map(\.rawValue) == [
            "setRoot", "push", "pushMany", "pushRemovingPrevious", "replaceCurrent", "replacePath", "pop",
            "popToRoot", "popTo", "sheet", "fullScreenCover", "dismiss", "dismissAll", "selectTab",
        ])
    }

    @Test func aRequestNamesItsTargetStackByItsOneBasedIndex() {
        let router = TestRouter(root: .home)
        router.present(.picker, style: .sheet)
        router.present(.editor, style: .fullScreenCover)
        let sheetID = router.stacks[1].id
        let hook = Hook()
        router.installRules(hook)
        router.perform(.push(.a, target: .root))
        router.perform(.push(.a, target: .active))
        router.perform(.push(.a, target: .stack(sheetID)))
        router.perform(.push(.a, target: .stack(UUID())))
        router.perform(FlowOperation<TestRoute>.setRoot(.home))
        #expect(hook.requests.map(\.target) == [1, 3, 2, nil])
        #expect(hook.requests.map(\.kind) == [.push, .push, .push, .setRoot])
        #expect(router.history.map(\.status).suffix(2) == [.stackNotFound, .applied])
    }

    @Test func aRequestCarriesEveryRouteTheOperationShows() {
        let router = TestRouter(root: .home, path: [.a])
        let hook = Hook()
        router.installRules(hook)
        router.perform(.replacePath(root: .settings, path: [.b, .detail(4)], target: .active))
        router.push(contentsOf: [.c, .editor])
        router.perform(FlowCommand(.present(.picker, style: .sheet), path: [.step(1)]))
        router.perform(.pop(count: 2, target: .root))
        let replace = hook.requests[0]
        #expect(replace.kind == .replacePath)
        #expect(replace.route == FlowRouteValue("settings"))
        #expect(replace.typedRoutes(as: TestRoute.self) == [.settings, .b, .detail(4)])
        #expect(replace.routes?[2] == FlowRouteValue("detail", ["_0": 4]))
        let batch = hook.requests[1]
        #expect(batch.kind == .pushMany && batch.route == nil)
        #expect(batch.routeNames == ["c", "editor"])
        #expect(hook.requests[2].kind == .sheet && hook.requests[2].routeNames == ["picker", "step"])
        let pop = hook.requests[3]
        #expect(pop.kind == .pop && pop.count == 2 && pop.routeNames.isEmpty)
        #expect(pop.summary == "pop")
        #expect(replace.summary == "replacePath settings, b, detail{_0=4}")
    }

    @Test func theStacksARuleSawStayReadableAfterTheDecision() {
        let router = TestRouter(root: .home, path: [.a])
        let hook = Hook()
        router.installRules(hook)
        router.push(.b)
        router.push(.c)
        #expect(hook.requests[0].typedStacks(as: TestRoute.self) == [[.home, .a]])
        #expect(hook.requests[1].typedStacks(as: TestRoute.self) == [[.home, .a, .b]])
        #expect(hook.requests[1].stacks.info(1)?.presentation == "root")
        #expect(hook.requests[1].stacks.route(stack: 2, position: 1) == nil)
    }

    @Test func aDecisionReadsTheStacksAsTheyAreAndItsViewDoesNotKeepTheRouter() {
        /// Reads the stacks while deciding and keeps no request.
        final class Reader: FlowRulesHook {
            var generation: Int { 1 }
            var seen: [[[TestRoute]]] = []
            func decide(_ request: FlowRuleRequest) -> FlowRuleDecision {
                seen.append(request.typedStacks(as: TestRoute.self))
                return .allow
            }
        }
        let hook = Reader()
        weak var weakRouter: TestRouter?
        do {
            let router = TestRouter(root: .home)
            router.installRules(hook)
            router.push(.a)
            router.push(.b)
            router.pop()
            weakRouter = router
        }
        #expect(hook.seen == [[[.home]], [[.home, .a]], [[.home, .a, .b]]])
        #expect(weakRouter == nil, "the stacks view synchronous decisions share does not keep its router")
    }

    @Test func aRedirectToARouteTheAppCannotBuildFailsThroughTheRulesPolicy() {
        let router = TestRouter(root: .home)
        let unknown = FlowRuleTarget(.push, route: FlowRouteValue("nowhere"), location: "rules/a.lua:3")
        router.installRules(Hook { request in
            request.routeNames == ["editor"] ? .redirect(unknown, FlowRuleBlock(stage: .guard)) : .allow
        })
        let result = router.perform(.push(.editor, target: .active))
        #expect(result.status == .failed)
        #expect(result.reason?.hasPrefix("rules/a.lua:3: cannot build the app's route from nowhere") == true, "\(result.reason ?? "")")
        #expect(router.activeStack.path.isEmpty)
    }

    @Test func aRuleTargetBuildsTheCommandOfEveryKind() throws {
        let commands: [FlowCommand<TestRoute>] = [
            FlowCommand(.setRoot(.home)), FlowCommand(.push(.detail(2), target: .active)),
            FlowCommand.pushMany([.a, .b])!, FlowCommand(.pushRemovingPrevious(.c, target: .active)),
            FlowCommand(.replaceCurrent(.a, target: .active)), FlowCommand(.replacePath(root: .b, path: [], target: .active)),
            FlowCommand(.pop(count: 3, target: .active)), FlowCommand(.popToRoot(target: .active)),
            FlowCommand(.popTo(.a, match: .inclusive, target: .active)), FlowCommand(.present(.picker, style: .sheet)),
            FlowCommand(.present(.editor, style: .fullScreenCover)), FlowCommand(.dismiss(target: .active)),
            FlowCommand(.dismissAll), FlowCommand.selectTab("feed"),
        ]
        #expect(commands.map { FlowRuleKind($0) } == FlowRuleKind.allCases)
        for command in commands {
            #expect(try FlowRuleTarget(command).command(as: TestRoute.self) == command)
        }
        #expect(throws: FlowRouteConversionError.self) { try FlowRuleTarget(.push).command(as: TestRoute.self) }
    }

    @Test func aStringRawValueEnumConvertsBothWays() throws {
        enum Tab: String, Codable, FlowRouteConvertible { case inbox, archive }
        #expect(Tab.inbox.flowRoute == FlowRouteValue("inbox"))
        #expect(try Tab(flowRoute: FlowRouteValue("archive")) == .archive)
        #expect(throws: FlowRouteConversionError.self) { try Tab(flowRoute: FlowRouteValue("trash")) }
    }
}
