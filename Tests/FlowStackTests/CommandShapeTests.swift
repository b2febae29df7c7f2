import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// A command keeps its operation's kind, target and count beside the operation (the hot path
/// reads them without copying the enum): they must always follow the operation, and stay out of
/// the command's encoding.
@MainActor
struct CommandShapeTests {
    nonisolated static let operations: [FlowOperation<TestRoute>] = [
        .setRoot(.home), .push(.a, target: .root), .pushRemovingPrevious(.b, target: .active),
        .replaceCurrent(.c, target: .stack(UUID())), .replacePath(root: .home, path: [.a], target: .active),
        .pop(count: 3, target: .root), .popToRoot(target: .active), .popTo(.a, match: .inclusive, target: .active),
        .present(.picker, style: .fullScreenCover), .present(.picker, style: .sheet), .dismiss(target: .active),
        .dismissAll,
    ]

    @Test("The shape matches the operation's kind, target and count, for every kind", arguments: operations)
    func shapeFollowsOperation(operation: FlowOperation<TestRoute>) {
        let shape = FlowCommand(operation).shape
        #expect(shape.kind == operation.kind)
        #expect(shape.target == operation.target)
        if case .pop(let count, _) = operation { #expect(shape.count == count) } else { #expect(shape.count == 0) }
        if case .present(_, let style) = operation { #expect(shape.style == style) } else { #expect(shape.style == .root) }
    }

    @Test("Assigning the operation updates the shape, and the router runs the new operation")
    func assignedOperation() {
        let router = TestRouter(root: .home)
        router.push(.a)
        router.push(.b)
        var command = FlowCommand<TestRoute>(.push(.c, target: .active))
        command.operation = .pop(count: 2, target: .root)
        #expect(command.shape.kind == .pop && command.shape.count == 2 && command.shape.target == .root)
        #expect(router.perform(command).isApplied)
        #expect(router.activeStack.path.isEmpty)
        // And a pop assigned a count the root stack cannot give is validated by that count.
        command.operation = .pop(count: 1, target: .root)
        #expect(router.perform(command).status == .nothingToPop)
    }

    @Test("The encoding holds the command's fields only, and decoding rebuilds the shape")
    func encoding() throws {
        let command = try #require(FlowCommand<TestRoute>.pushMany([.a, .detail(4)], target: .root))
        let data = try JSONEncoder().encode(command)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["operation", "batch", "path", "options", "refreshIfSameRoute"])
        let decoded = try JSONDecoder().decode(FlowCommand<TestRoute>.self, from: data)
        #expect(decoded == command)
        #expect(decoded.shape == command.shape)
        let single = FlowCommand<TestRoute>(.pop(count: 2, target: .active))
        let plain = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(single)) as? [String: Any])
        #expect(plain["batch"] == nil, "a command without a batch encodes no batch key, as before")
        #expect(try JSONDecoder().decode(FlowCommand<TestRoute>.self, from: JSONEncoder().encode(single)).shape.count == 2)
    }
}

/// The actions that return a `Bool` run without building a result (the applied command moves
/// into the history): what they record must be what `perform` records.
@MainActor
struct AppliedFlagActionTests {
    @Test("push, pop and present record the same entries as perform, with and without observers")
    func sameEntries() {
        for observed in [false, true] {
            let viaActions = TestRouter(root: .home)
            let viaPerform = TestRouter(root: .home)
            var seen = 0
            if observed {
                _ = viaActions.observe { event in if case .recorded = event { seen += 1 } }
            }
            // The same requests both ways, including ones that do not apply.
            let actions = [
                viaActions.push(.a), viaActions.sheet(.picker), viaActions.pop(), viaActions.dismiss(),
                viaActions.pop(), viaActions.pop(),
            ]
            let performed = [
                viaPerform.perform(.push(.a, target: .active)).isApplied,
                viaPerform.perform(FlowCommand(.present(.picker, style: .sheet))).isApplied,
                viaPerform.perform(.pop(count: 1, target: .active)).isApplied,
                viaPerform.perform(.dismiss(target: .active)).isApplied,
                viaPerform.perform(.pop(count: 1, target: .active)).isApplied,
                viaPerform.perform(.pop(count: 1, target: .active)).isApplied,
            ]
            #expect(actions == performed)
            #expect(actions.contains(false) && actions.contains(true))
            let left = viaActions.history.map { [$0.command, $0.status, $0.reason, $0.source, $0.newStacks.map(\.routes)] as [AnyHashable?] }
            let right = viaPerform.history.map { [$0.command, $0.status, $0.reason, $0.source, $0.newStacks.map(\.routes)] as [AnyHashable?] }
            #expect(left == right)
            #expect(viaActions.history.map(\.sequence) == viaPerform.history.map(\.sequence))
            #expect(seen == (observed ? 6 : 0))
        }
    }
}
