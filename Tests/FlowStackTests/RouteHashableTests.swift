import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// A user payload with an `id` field: the derived route id uses the field.
private struct User {
    let id: String
    let name: String
}

/// A payload without an `id`: the route id falls back to its description, with a warning.
private struct QuietFallbackPayload {
    let value: Int
}

/// A payload without an `id`, used only while the fallback warning is enabled.
private struct LoudFallbackPayload {
    let value: Int
}

private enum Tab: Hashable {
    case feed, profile(Int)
}

private enum Inner: RouteHashable {
    case card(Int)

    var id: String {
        switch self {
        case .card(let n): "card-\(n)"
        }
    }
}

private enum HashableLinkRoute: RouteHashable {
    case home
    case detail(id: Int)
    case pair(Int, String)
    case labelled(name: String, count: Int)
    case picker(initialHex: String, didPick: (String) -> Void)
    case callback(() -> Void)
    case nested(Inner)
    case tab(Tab)
    case user(User)
    case optional(name: String?)
    case link(URL)
    case token(UUID)
    case flag(Bool)
    case ratio(Double)
    case quiet(QuietFallbackPayload)
    case loud(LoudFallbackPayload)
}

private enum OverriddenRoute: RouteHashable {
    case user(User)
    case settings

    var id: String {
        switch self {
        case .user(let user): "user_\(user.id)"
        case .settings: "settings"
        }
    }
}

private final class ProfileRoute: AnyRouteHashable {
    let onSave: () -> Void

    init(userID: String, onSave: @escaping () -> Void = {}) {
        self.onSave = onSave
        super.init(id: "profile_\(userID)")
    }
}

/// Runs `body` with the process's standard error sent to a file and returns what was written.
private func capturingStandardError(_ body: () -> Void) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-stderr-\(UUID().uuidString)")
    try #require(FileManager.default.createFile(atPath: url.path, contents: nil))
    defer { try? FileManager.default.removeItem(at: url) }
    let file = try FileHandle(forWritingTo: url)
    let saved = dup(2)
    dup2(file.fileDescriptor, 2)
    body()
    dup2(saved, 2)
    close(saved)
    try file.close()
    let text = try String(contentsOf: url, encoding: .utf8)
    // Give back anything other tests wrote meanwhile.
    FileHandle.standardError.write(Data(text.utf8))
    return text
}

/// RouteHashable's derived identities and AnyRouteHashable.
@MainActor
struct RouteHashableTests {
    @Test func aCaseWithoutPayloadIsItsName() {
        #expect(HashableLinkRoute.home.id == "home")
        #expect(OverriddenRoute.settings.id == "settings")
    }

    @Test func labelledAndUnlabelledValuesAreIncluded() {
        #expect(HashableLinkRoute.detail(id: 42).id == "detail(id:42)")
        #expect(HashableLinkRoute.pair(1, "x").id == "pair(1,x)")
        #expect(HashableLinkRoute.labelled(name: "n", count: 3).id == "labelled(name:n,count:3)")
        #expect(HashableLinkRoute.detail(id: 1) == .detail(id: 1))
        #expect(HashableLinkRoute.detail(id: 1) != .detail(id: 2))
    }

    @Test func closuresAreSkipped() {
        let first = HashableLinkRoute.picker(initialHex: "#FFFFFF") { _ in }
        let second = HashableLinkRoute.picker(initialHex: "#FFFFFF") { print($0) }
        let third = HashableLinkRoute.picker(initialHex: "#000000") { _ in }
        #expect(first.id == "picker(initialHex:#FFFFFF)")
        #expect(first == second)
        #expect(first != third)
        #expect(Set([first, second, third]).count == 2)
        #expect(HashableLinkRoute.callback {}.id == "callback")
    }

    @Test func commonPayloadTypesHaveStableTexts() throws {
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(HashableLinkRoute.token(uuid).id == "token(E621E1F8-C36C-495A-93FC-0C247A3E6E5F)")
        #expect(HashableLinkRoute.link(try #require(URL(string: "https://example.com/a?b=1"))).id == "link(https://example.com/a?b=1)")
        #expect(HashableLinkRoute.flag(true).id == "flag(true)")
        #expect(HashableLinkRoute.ratio(0.5).id == "ratio(0.5)")
        #expect(HashableLinkRoute.optional(name: "x").id == "optional(name:x)")
        #expect(HashableLinkRoute.optional(name: nil).id == "optional(name:nil)")
    }

    @Test func nestedRoutesUseTheirOwnIdentity() {
        #expect(HashableLinkRoute.nested(.card(7)).id == "nested(card-7)")
        #expect(HashableLinkRoute.tab(.feed).id == "tab(feed)")
        #expect(HashableLinkRoute.tab(.profile(3)).id == "tab(profile(3))")
        #expect(HashableLinkRoute.user(User(id: "u1", name: "Ann")).id == "user(u1)")
        #expect(HashableLinkRoute.user(User(id: "u1", name: "Ann")) == .user(User(id: "u1", name: "Bob")))
    }

    @Test func anOverriddenIDDecidesEquality() {
        let first = OverriddenRoute.user(User(id: "7", name: "a"))
        let second = OverriddenRoute.user(User(id: "7", name: "b"))
        #expect(first.id == "user_7")
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != .user(User(id: "8", name: "a")))
    }

    @Test func aFallbackIDWarnsUnlessSilenced() throws {
        let wasWarning = FlowRouteIDDiagnostics.warnsOnFallbackID
        defer { FlowRouteIDDiagnostics.warnsOnFallbackID = wasWarning }

        FlowRouteIDDiagnostics.warnsOnFallbackID = true
        var loudID = ""
        let loud = try capturingStandardError { loudID = HashableLinkRoute.loud(LoudFallbackPayload(value: 1)).id }
        #expect(loudID.contains("value: 1"))
        #expect(loud.contains("LoudFallbackPayload"))
        #expect(loud.contains("warnsOnFallbackID"))

        FlowRouteIDDiagnostics.warnsOnFallbackID = false
        var quietID = ""
        let quiet = try capturingStandardError { quietID = HashableLinkRoute.quiet(QuietFallbackPayload(value: 2)).id }
        #expect(quietID.contains("value: 2"))
        #expect(!quiet.contains("QuietFallbackPayload"))
        #expect(HashableLinkRoute.quiet(QuietFallbackPayload(value: 2)) != .quiet(QuietFallbackPayload(value: 3)))
    }

    @Test func anyRouteHashableComparesByID() {
        let first = ProfileRoute(userID: "1")
        let second = ProfileRoute(userID: "1") { print("saved") }
        let third = ProfileRoute(userID: "2")
        #expect(first == second)
        #expect(first != third)
        #expect(Set([first, second, third]).count == 2)
        #expect(AnyRouteHashable(id: "x") == AnyRouteHashable(id: "x"))
        #expect(AnyRouteHashable(id: "x").hashValue == AnyRouteHashable(id: "x").hashValue)
    }

    @Test func routeHashableRoutesNavigate() {
        let router = FlowRouter<AnyRouteHashable, TestDialog>(root: AnyRouteHashable(id: "root"))
        router.push(ProfileRoute(userID: "1"))
        let oldNode = router.activeStack.navigationPath[0].id
        router.replaceCurrent(with: ProfileRoute(userID: "1") {})
        #expect(router.activeStack.path.map(\.id) == ["profile_1"])
        #expect(router.activeStack.navigationPath[0].id != oldNode)
        #expect(router.popTo(ProfileRoute(userID: "1"), match: .inclusive))
        #expect(router.activeStack.path.isEmpty)

        let enumRouter = FlowRouter<HashableLinkRoute, TestDialog>(root: .home)
        let picker = HashableLinkRoute.picker(initialHex: "#FFFFFF") { _ in }
        enumRouter.push(picker)
        enumRouter.replaceCurrent(with: .picker(initialHex: "#FFFFFF") { _ in })
        #expect(enumRouter.activeStack.path == [picker])
        #expect(enumRouter.popTo(.picker(initialHex: "#FFFFFF") { _ in }, match: .inclusive))
    }
}
