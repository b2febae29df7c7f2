import FlowScript
import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing

/// The operation kinds are defined once, by the Lua surface table (`FlowLuaSurface.kinds`);
/// every other list of them is generated from it or must agree with it.
struct OperationKindsTests {
    /// The kinds of the surface table, in order.
    static let kinds = FlowLuaSurface.kinds.map(\.name)

    @Test("the rules' kind enum is the table, and numbers each kind by its place in it (the prelude's KINDS, read by index in C)")
    func ruleKinds() {
        #expect(FlowRuleKind.allCases.map(\.rawValue) == Self.kinds)
        for (offset, kind) in FlowRuleKind.allCases.enumerated() {
            #expect(kind.position == offset + 1, "\(kind)")
        }
    }

    @Test("the contract lists the table's kinds, in its order")
    func contract() throws {
        let text = try String(contentsOf: FlowStackBinary.packageRoot.appendingPathComponent("docs/lua-surface.md"), encoding: .utf8)
        let start = try #require(text.range(of: "Kinds: "))
        let sentence = text[start.upperBound...].prefix { $0 != "(" }
        let listed = sentence.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(listed == Self.kinds)
    }

    @Test("every Swift operation kind is a kind of the table; present is sheet or fullScreenCover")
    func operationKinds() {
        for kind in FlowOperationKind.allCases where kind != .present {
            #expect(Self.kinds.contains(kind.rawValue), "\(kind)")
        }
        let sheet = FlowCommand<String>(.present("a", style: .sheet))
        let cover = FlowCommand<String>(.present("a", style: .fullScreenCover))
        #expect([FlowRuleKind(sheet), FlowRuleKind(cover)] == [.sheet, .fullScreenCover])
        #expect([sheet.kindName, cover.kindName, FlowCommand.pushMany(["a", "b"])?.kindName] == ["sheet", "fullScreenCover", "pushMany"])
    }

    @Test("the kinds a route's opens may list are kinds of the table")
    func openingKinds() {
        let opening = FlowManifest.RouteSpec.openingKinds
        #expect(opening.allSatisfy(Self.kinds.contains), "\(opening)")
    }
}
