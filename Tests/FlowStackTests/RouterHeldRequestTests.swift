import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// One held request, one behaviour: the contract's table ("One held request"), row by row, for a
/// held navigation and a held link alike. Rules: `orders` needs a sign-in (a login sheet), then a
/// payment (a paywall cover), then a PIN (a dialog); each gate holds.
@MainActor
@Suite("Router: held requests (navigation and link, one table)")
struct RouterHeldRequestTests {
    typealias Router = FlowRouter<FlowRouteValue, FlowDialogValue>
    typealias Hook = ScriptedRulesHook<FlowRouteValue>

    /// How the request is asked for.
    enum Path: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case navigation, link
        var testDescription: String { rawValue }
    }

    @MainActor
    final class Rig {
        var signedIn = false
        var paid = true
        var pinEntered = true
        var paywallHolds = true
        var paywallAllowed = true
        var ageConfirmed = true
        let router = Router(root: FlowRouteValue("home"))
        let path: Path

        init(_ path: Path) {
            self.path = path
            router.installRules(Hook { [unowned self] request in
                let names = (request.routes ?? request.route.map { [$0] } ?? []).map(\.name)
                if names.contains("paywall"), !self.paywallAllowed { return Hook.blocked("no paywall today") }
                guard names.contains("orders") else { return .allow }
                if !self.signedIn {
                    return Hook.redirect(to: Self.login, reason: "sign in first", resume: true)
                }
                if !self.paid {
                    return Hook.redirect(to: Self.paywall, reason: "pay first", resume: self.paywallHolds)
                }
                if !self.ageConfirmed {
                    return .block(FlowRuleBlock(
                        stage: .guard, reason: "confirm your age",
                        dialog: FlowDialogRedirect(dialog: FlowDialogValue(id: "age", fields: nil)), resume: true))
                }
                if !self.pinEntered {
                    return .block(FlowRuleBlock(
                        stage: .guard, reason: "enter the PIN",
                        dialog: FlowDialogRedirect(dialog: FlowDialogValue(id: "pin", fields: nil)), resume: true))
                }
                return .allow
            })
            var links = FlowDeepLinks<FlowRouteValue>()
            try? links.add("/orders") { _, _ in [FlowCommand(.push(FlowRouteValue("orders"), target: .active))] }
            router.deepLinks.resolver = links
        }

        static let login = FlowCommand<FlowRouteValue>(.present(FlowRouteValue("login"), style: .sheet))
        static let paywall = FlowCommand<FlowRouteValue>(.present(FlowRouteValue("paywall"), style: .fullScreenCover))

        /// Asks for orders by this rig's path.
        func ask() {
            switch path {
            case .navigation: router.perform(FlowCommand(.push(FlowRouteValue("orders"), target: .active)))
            case .link: router.open(URL(string: "myapp://orders")!)
            }
        }

        /// Whether the request is held.
        var isHeld: Bool {
            switch path {
            case .navigation: router.pendingNavigation != nil
            case .link: router.pendingLink != nil
            }
        }

        /// Retries it explicitly.
        func resume() {
            switch path {
            case .navigation: router.resumePendingNavigation()
            case .link: router.resumePendingLink()
            }
        }

        /// What is on screen, root stack first: each stack's route names.
        var screens: [[String]] { router.stacks.map { ([$0.root] + $0.path).map(\.name) } }
    }

    @Test("allowed: the gate goes and the request runs", arguments: Path.allCases)
    func allowed(_ path: Path) {
        let rig = Rig(path)
        rig.ask()
        #expect(rig.screens == [["home"], ["login"]])
        #expect(rig.isHeld)
        rig.signedIn = true
        rig.router.factsDidChange()
        #expect(rig.screens == [["home", "orders"]])
        #expect(!rig.isHeld)
    }

    @Test("refused by the same redirect: nothing changes, the sheet stays", arguments: Path.allCases)
    func sameGate(_ path: Path) {
        let rig = Rig(path)
        rig.ask()
        let before = rig.router.stacks
        rig.router.factsDidChange()
        rig.resume()
        #expect(rig.router.stacks == before)
        #expect(rig.isHeld)
    }

    @Test("a closed gate: a fact change leaves it closed, an explicit retry shows it again", arguments: Path.allCases)
    func closedGate(_ path: Path) {
        let rig = Rig(path)
        rig.ask()
        _ = rig.router.userDidDismiss()
        rig.router.factsDidChange()
        #expect(rig.screens == [["home"]])
        #expect(rig.isHeld)
        rig.resume()
        #expect(rig.screens == [["home"], ["login"]])
        #expect(rig.isHeld)
    }

    @Test("refused by another redirect: the login sheet goes, the paywall shows, still held; paid, it runs",
          arguments: Path.allCases)
    func nextGate(_ path: Path) {
        let rig = Rig(path)
        rig.paid = false
        rig.ask()
        rig.signedIn = true
        rig.router.factsDidChange()
        #expect(rig.screens == [["home"], ["paywall"]])
        #expect(rig.router.stacks.last?.style == .fullScreenCover)
        #expect(rig.isHeld)
        rig.paid = true
        rig.router.factsDidChange()
        #expect(rig.screens == [["home", "orders"]])
        #expect(!rig.isHeld)
    }

    @Test("a next gate without resume: a navigation is dropped, a link stays held", arguments: Path.allCases)
    func nextGateWithoutResume(_ path: Path) {
        let rig = Rig(path)
        rig.paid = false
        rig.paywallHolds = false
        rig.ask()
        rig.signedIn = true
        rig.router.factsDidChange()
        #expect(rig.screens == [["home"], ["paywall"]])
        #expect(rig.isHeld == (path == .link))
    }

    @Test("a next gate that is itself refused: nothing changes", arguments: Path.allCases)
    func nextGateRefused(_ path: Path) {
        let rig = Rig(path)
        rig.paid = false
        rig.paywallAllowed = false
        rig.ask()
        rig.signedIn = true
        rig.router.factsDidChange()
        #expect(rig.screens == [["home"], ["login"]])
        #expect(rig.isHeld)
    }

    @Test("a dialog gate: its answer lets the request run and hides it", arguments: Path.allCases)
    func dialogGate(_ path: Path) {
        let rig = Rig(path)
        rig.signedIn = true
        rig.pinEntered = false
        rig.ask()
        #expect(rig.router.globalDialog?.id == "pin")
        #expect(rig.isHeld)
        rig.pinEntered = true
        rig.router.factsDidChange()
        #expect(rig.router.globalDialog == nil)
        #expect(rig.screens == [["home", "orders"]])
        #expect(!rig.isHeld)
    }

    @Test("one dialog gate, then another: the second replaces the first and the request stays held", arguments: Path.allCases)
    func dialogThenDialog(_ path: Path) {
        let rig = Rig(path)
        rig.signedIn = true
        rig.ageConfirmed = false
        rig.pinEntered = false
        rig.ask()
        #expect(rig.router.globalDialog?.id == "age")
        rig.ageConfirmed = true
        rig.router.factsDidChange()
        #expect(rig.router.globalDialog?.id == "pin")
        #expect(rig.isHeld)
        rig.pinEntered = true
        rig.router.factsDidChange()
        #expect(rig.router.globalDialog == nil)
        #expect(rig.screens == [["home", "orders"]])
        #expect(!rig.isHeld)
    }

    @Test("a navigation held by a dialog is dropped when the dialog is dismissed, recorded as cancelled")
    func dialogDismissed() throws {
        let rig = Rig(.navigation)
        rig.signedIn = true
        rig.pinEntered = false
        rig.ask()
        #expect(rig.router.pendingNavigation?.dialog?.id == "pin")
        rig.router.hideGlobalDialog()
        #expect(rig.router.pendingNavigation == nil)
        let last = try #require(rig.router.history.last)
        #expect(last.status == .cancelled)
        #expect(last.command?.summary == "push orders")
        #expect(last.reason == "dropped: the dialog 'pin' was dismissed before the rules allowed it")
    }

    @Test("a link held by a dialog is dropped when the dialog is dismissed, logged with the dialog's name")
    func linkDialogDismissed() throws {
        let rig = Rig(.link)
        rig.signedIn = true
        rig.pinEntered = false
        rig.ask()
        #expect(rig.router.deepLinks.heldLink?.lastDialog?.id == "pin")
        rig.router.hideGlobalDialog()
        #expect(!rig.isHeld)
        let last = try #require(rig.router.deepLinks.linkLog.last)
        #expect(last.event == .dropped)
        #expect(last.reason == "the dialog 'pin' was dismissed before the rules allowed it")
        rig.pinEntered = true
        rig.router.factsDidChange()
        #expect(rig.screens == [["home"]])
    }

    @Test("login, then paywall, then PIN: each gate replaces the one before, then the navigation runs")
    func chain() {
        let rig = Rig(.navigation)
        rig.paid = false
        rig.pinEntered = false
        rig.ask()
        rig.signedIn = true
        rig.router.factsDidChange()
        #expect(rig.screens == [["home"], ["paywall"]])
        rig.paid = true
        rig.router.factsDidChange()
        #expect(rig.screens == [["home"]])
        #expect(rig.router.globalDialog?.id == "pin")
        rig.pinEntered = true
        rig.router.factsDidChange()
        #expect(rig.screens == [["home", "orders"]])
        #expect(rig.router.globalDialog == nil)
        #expect(rig.router.pendingNavigation == nil)
    }

    @Test("a navigation held from an async one resumes through the async pipeline, its async rule answered")
    func asyncResume() async {
        let router = Router(root: FlowRouteValue("home"))
        var signedIn = false
        var confirmations = 0
        let hook = Hook { request in
            guard request.route?.name == "deleteAccount", !signedIn else { return .allow }
            return Hook.redirect(to: Rig.login, reason: "sign in first", resume: true)
        }
        hook.asyncDecider = { request in
            guard request.route?.name == "deleteAccount" else { return .allow }
            if !signedIn { return Hook.redirect(to: Rig.login, reason: "sign in first", resume: true) }
            await Task.yield()
            confirmations += 1
            return .allow
        }
        router.installRules(hook)
        await router.performAsync(FlowCommand(.push(FlowRouteValue("deleteAccount"), target: .active)))
        #expect(router.pendingNavigation?.isAsync == true)
        signedIn = true
        router.factsDidChange()
        await router.automaticResume?.value
        #expect(confirmations == 1)
        #expect(router.pendingNavigation == nil)
        #expect(router.stacks.map { ([$0.root] + $0.path).map(\.name) } == [["home", "deleteAccount"]])
        #expect(router.history.suffix(2).allSatisfy { $0.source == .resume && $0.status == .applied })
    }
}
