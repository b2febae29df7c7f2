@testable import FlowStackCore
import Foundation
import Testing

@MainActor
@Suite("Deep link pipeline: router API, log and builders")
struct DeepLinkPipelineRouterTests {
    @Test func eachRouterHasItsOwnCenterForItsLifetime() throws {
        let first = LinkRouter(root: .home)
        let second = LinkRouter(root: .home)
        #expect(first.deepLinks === first.deepLinks)
        #expect(first.deepLinks !== second.deepLinks)
        #expect(first.deepLinks.router === first)

        first.pendingLinkTimeout = 42
        #expect(first.deepLinks.pendingLinkTimeout == 42)
        #expect(second.pendingLinkTimeout == 600)

        first.deepLinks.resolver = try makeLinks()
        #expect(first.open(url: try link("myapp://settings")).status == .applied)
        #expect(second.open(url: try link("myapp://settings")).status == .unhandled)
    }

    @Test func eachRouterOwnsOneCenterReleasedWithIt() throws {
        var router: LinkRouter? = LinkRouter(root: .home)
        weak var center: FlowDeepLinkCenter<LinkRoute, String>?
        center = router!.deepLinks
        #expect(router!.deepLinks === center)
        #expect(center?.router === router)
        weak var weakRouter: LinkRouter?
        weakRouter = router
        router = nil
        #expect(weakRouter == nil)
        #expect(center == nil)
    }

    @Test func linkLogRecordsAttemptsAndIsBounded() throws {
        let (router, clock) = try makeLinkRouter(policy: FlowLinkPolicy(allowedSchemes: ["myapp"]))
        var heard: [FlowDeepLinkLogEntry] = []
        router.deepLinks.onEvent = { heard.append($0) }
        router.deepLinks.maximumLogCount = 3
        router.open(url: try link("ftp://a"))
        clock.advance(1)
        router.open(url: try link("myapp://settings"))
        router.open(url: try link("myapp://zzz"))
        router.open(url: try link("myapp://products/1"))

        let log = router.deepLinks.linkLog
        #expect(log.count == 3)
        #expect(log.map(\.event) == [
            .attempted(.open, .applied), .attempted(.open, .unhandled), .attempted(.open, .applied),
        ])
        #expect(log.first?.date == clock.date)
        #expect(log.first?.description == "open myapp://settings: applied")
        #expect(heard.count == 4)
        #expect(heard.first?.event == .attempted(.open, .rejected))

        router.deepLinks.maximumLogCount = 1
        #expect(router.deepLinks.linkLog.map(\.url) == [try link("myapp://products/1")])
        router.deepLinks.clearLinkLog()
        #expect(router.deepLinks.linkLog.isEmpty)
    }

    @Test func planBuildersMakeTheSameCommandsAsTheOperations() {
        let options = FlowPresentationOptions(allowsInteractiveDismiss: false)
        let pairs: [(FlowCommand<LinkRoute>, FlowCommand<LinkRoute>)] = [
            (.setRoot(.home, path: [.settings]), FlowCommand(.setRoot(.home), path: [.settings])),
            (.push(.editor), FlowCommand(.push(.editor, target: .active))),
            (.push(.editor, on: .root), FlowCommand(.push(.editor, target: .root))),
            (.replaceCurrent(with: .login), FlowCommand(.replaceCurrent(.login, target: .active))),
            (.replacePath(root: .home, path: [.editor]), FlowCommand(.replacePath(root: .home, path: [.editor], target: .active))),
            (.pop(2), FlowCommand(.pop(count: 2, target: .active))),
            (.popToRoot(), FlowCommand(.popToRoot(target: .active))),
            (.popTo(.home, match: .inclusive), FlowCommand(.popTo(.home, match: .inclusive, target: .active))),
            (.sheet(.promo("a"), path: [.editor], options: options),
             FlowCommand(.present(.promo("a"), style: .sheet), path: [.editor], options: options)),
            (.fullScreenCover(.paywall), FlowCommand(.present(.paywall, style: .fullScreenCover))),
            (.dismiss(), FlowCommand(.dismiss(target: .active))),
            (.dismissAll(), FlowCommand(.dismissAll)),
        ]
        for (built, expected) in pairs {
            #expect(built == expected, "\(built.summary)")
        }
    }

    @Test func swiftLinksReportDiagnosticsWithTheCallersLocation() throws {
        var links = FlowDeepLinks<LinkRoute>()
        try links.add("/products/*") { _, _ in [.push(.home)] }
        try links.add("/products/:id") { _, _ in [.push(.editor)] }
        #expect(links.count == 2)
        let diagnostic = try #require(links.diagnostics.first)
        #expect(links.diagnostics.count == 1)
        #expect(diagnostic.kind == .shadowed)
        #expect(diagnostic.location?.file.hasSuffix("PipelineRouterTests.swift") == true)
        #expect(throws: FlowLinkPatternError.self) {
            try links.add("products") { _, _ in nil }
        }
        links.removeAll()
        #expect(links.count == 0)
    }

    @Test func redirectAlreadyShowingIsRecognisedPerOperation() {
        let router = LinkRouter(root: .home)
        router.push(.login)
        #expect(FlowCommand<LinkRoute>.push(.login).isShowing(in: router.stacks))
        #expect(FlowCommand<LinkRoute>.replaceCurrent(with: .login).isShowing(in: router.stacks))
        #expect(FlowCommand<LinkRoute>.setRoot(.home, path: [.login]).isShowing(in: router.stacks))
        #expect(!FlowCommand<LinkRoute>.sheet(.login).isShowing(in: router.stacks))
        #expect(!FlowCommand<LinkRoute>.popToRoot().isShowing(in: router.stacks))
        router.sheet(.login)
        #expect(FlowCommand<LinkRoute>.sheet(.login).isShowing(in: router.stacks))
        #expect(!FlowCommand<LinkRoute>.fullScreenCover(.login).isShowing(in: router.stacks))
        #expect(FlowCommand<LinkRoute>.push(.login, on: .root).isShowing(in: router.stacks))
        #expect(!FlowCommand<LinkRoute>.setRoot(.home, path: [.login]).isShowing(in: router.stacks))
    }
}
