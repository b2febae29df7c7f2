import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// Held navigations in the router core (no Lua): a resuming redirect holds the refused
/// navigation in the state; resuming dismisses the redirect's presentation and runs it.
@MainActor
@Suite("Router: held navigations")
struct RouterPendingNavigationTests {
    typealias Hook = ScriptedRulesHook<TestRoute>

    /// A router whose rules send `editor` to a login sheet, with `resume`, until `signedIn`.
    @MainActor
    final class Rig {
        var signedIn = false
        var resume = true
        let router = TestRouter(root: .home)
        var now = Date(timeIntervalSince1970: 1_000)

        init() {
            router.deepLinks.now = { [unowned self] in self.now }
            router.installRules(Hook { [unowned self] request in
                guard request.typedRoutes(as: TestRoute.self).contains(.editor), !self.signedIn else { return .allow }
                return Hook.redirect(to: FlowCommand(.present(.login, style: .sheet)), reason: "sign in first", resume: self.resume)
            })
        }
    }

    @Test("a resuming redirect holds the refused navigation, in the state, with its redirect's presentation")
    func holds() throws {
        let rig = Rig()
        #expect(!rig.router.push(.editor))
        let pending = try #require(rig.router.pendingNavigation)
        #expect(pending.command == FlowCommand(.push(.editor, target: .active)))
        #expect(pending.kind == "push")
        #expect(pending.routes == [.editor])
        #expect(pending.reason == "sign in first")
        #expect(pending.source == .code)
        #expect(pending.heldAt == rig.now)
        #expect(pending.attempts == 1)
        #expect(pending.redirect == FlowCommand(.present(.login, style: .sheet)))
        #expect(pending.presentedStackID == rig.router.stacks.last?.id)
        #expect(rig.router.state.pendingNavigation == pending)
        #expect(rig.router.topRoute == .login)
    }

    @Test("a redirect without resume holds nothing")
    func plainRedirect() {
        let rig = Rig()
        rig.resume = false
        #expect(!rig.router.push(.editor))
        #expect(rig.router.pendingNavigation == nil)
        #expect(rig.router.resumePendingNavigation().status == .nothingHeld)
    }

    @Test("once the rules allow it, resuming dismisses the sign-in sheet and runs it with source resume")
    func resumes() throws {
        let rig = Rig()
        rig.router.push(.a)
        rig.router.push(.editor)
        let refused = rig.router.resumePendingNavigation()
        #expect(refused.status == .stillHeld)
        #expect(refused.reason?.contains("sign in first") == true)
        #expect(rig.router.pendingNavigation?.attempts == 2)
        #expect(rig.router.topRoute == .login)
        rig.signedIn = true
        let resumed = rig.router.resumePendingNavigation()
        #expect(resumed.didResume)
        #expect(rig.router.pendingNavigation == nil)
        #expect(rig.router.stacks.count == 1)
        #expect(rig.router.rootStack.path == [.a, .editor])
        let last = rig.router.history.suffix(2).map { ($0.command?.summary, $0.source, $0.status) }
        #expect(last.map(\.0) == ["dismiss", "push editor"])
        #expect(last.map(\.1) == [.resume, .resume])
        #expect(last.map(\.2) == [.applied, .applied])
    }

    @Test("factsDidChange resumes it; a sheet the person closed is not dismissed again")
    func factsChange() {
        let rig = Rig()
        rig.router.push(.editor)
        rig.router.factsDidChange()
        #expect(rig.router.pendingNavigation != nil)
        rig.router.perform(.dismiss(target: .active), source: .user)
        rig.signedIn = true
        rig.router.factsDidChange()
        #expect(rig.router.pendingNavigation == nil)
        #expect(rig.router.rootStack.path == [.editor])
        #expect(rig.router.history.last?.source == .resume)
        #expect(!rig.router.history.contains { $0.source == .resume && $0.command?.summary == "dismiss" })
    }

    @Test("the newest held navigation replaces an older one")
    func newestWins() throws {
        let rig = Rig()
        rig.router.push(.editor)
        rig.router.dismiss()
        rig.router.push(contentsOf: [.a, .editor])
        let pending = try #require(rig.router.pendingNavigation)
        #expect(pending.kind == "pushMany")
        #expect(pending.routes == [.a, .editor])
    }

    @Test("it is dropped after pendingNavigationTimeout seconds, and by cancelPendingNavigation")
    func timeoutAndCancel() {
        let rig = Rig()
        rig.router.pendingNavigationTimeout = 60
        rig.router.push(.editor)
        rig.now += 59
        #expect(rig.router.pendingNavigation != nil)
        rig.now += 1
        #expect(rig.router.pendingNavigation == nil)
        #expect(rig.router.resumePendingNavigation().status == .nothingHeld)
        rig.router.dismiss()
        rig.router.push(.editor)
        #expect(rig.router.cancelPendingNavigation()?.routes == [.editor])
        #expect(rig.router.pendingNavigation == nil)
        #expect(rig.router.cancelPendingNavigation() == nil)
    }

    @Test("a held navigation that can no longer run is dropped")
    func dropped() {
        let rig = Rig()
        rig.router.installRules(Hook { request in
            request.kind == .popTo && !rig.signedIn
                ? Hook.redirect(to: FlowCommand(.present(.login, style: .sheet)), resume: true) : .allow
        })
        rig.router.push(contentsOf: [.a, .b])
        #expect(!rig.router.popTo(.a))
        #expect(rig.router.pendingNavigation?.kind == "popTo")
        rig.router.perform(.dismiss(target: .active), source: .user)
        rig.router.perform(.popToRoot(target: .root), source: .user)
        rig.signedIn = true
        let result = rig.router.resumePendingNavigation()
        #expect(result.status == .dropped)
        #expect(result.reason?.contains("not in the stack's path") == true)
        #expect(rig.router.pendingNavigation == nil)
    }

    @Test("in a redirect chain, what was asked for first is held")
    func chainHoldsTheFirst() throws {
        let router = TestRouter(root: .home)
        router.installRules(Hook { request in
            switch request.typedRoutes(as: TestRoute.self).first {
            case .editor: Hook.redirect(to: FlowCommand(.push(.settings, target: .active)))
            case .settings: Hook.redirect(to: FlowCommand(.present(.login, style: .sheet)), reason: "sign in", resume: true)
            default: .allow
            }
        })
        router.push(.editor)
        let pending = try #require(router.pendingNavigation)
        #expect(pending.routes == [.editor])
        #expect(pending.redirect == FlowCommand(.present(.login, style: .sheet)))
        #expect(pending.presentedStackID == router.stacks.last?.id)
    }

    @Test("a transaction's resuming redirect holds nothing (a held deep link is its own)")
    func transactionHoldsNothing() {
        let rig = Rig()
        let transaction = rig.router.transaction { $0.push(.editor) }
        #expect(!transaction.isCommitted)
        #expect(rig.router.pendingNavigation == nil)
    }

    @Test("the async queue holds too, and resumePendingNavigationAsync runs it in a turn of the queue")
    func async() async {
        let rig = Rig()
        #expect(!(await rig.router.pushAsync(.editor)))
        #expect(rig.router.pendingNavigation?.presentedStackID == rig.router.stacks.last?.id)
        rig.signedIn = true
        #expect(await rig.router.resumePendingNavigationAsync().didResume)
        #expect(rig.router.rootStack.path == [.editor])
        #expect(rig.router.stacks.count == 1)
    }
}
