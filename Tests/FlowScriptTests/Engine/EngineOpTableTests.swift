import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §1 "op": the operation table every precondition and guard receives.
@Suite("Engine: the op table")
@MainActor
struct EngineOpTableTests {
    /// A rig whose "*" precondition hands every op to Swift.
    @MainActor
    final class Capture {
        let rig: RulesRig
        var ops: [FlowScriptValue] = []

        init() throws {
            rig = try RulesRig("flow.precondition('*', function(op, stacks, ctx) host.capture(op) end)")
            rig.engine.registerHost("capture") { [unowned self] arguments in
                ops.append(arguments.first.flatMap { $0 } ?? .string("nil"))
                return []
            }
        }

        /// The op of the last decision.
        var last: FlowScriptValue? { ops.last }
    }

    static func op(_ fields: [String: FlowScriptValue]) -> FlowScriptValue {
        var all = fields
        if all["source"] == nil { all["source"] = "code" }
        if all["async"] == nil { all["async"] = false }
        return .table(all)
    }

    @Test("Stack operations: kind, route, routes, count, target (1-based), source, async")
    func stackOperations() throws {
        let capture = try Capture()
        let router = capture.rig.router
        router.setRoot(route("home", ["tab": 2]))
        #expect(capture.last == Self.op(["kind": "setRoot", "route": ["name": "home", "tab": 2]]))
        router.push(route("detail", ["id": "42"]))
        #expect(capture.last == Self.op(["kind": "push", "route": ["name": "detail", "id": "42"], "target": 1]))
        router.push(contentsOf: [route("a"), route("b", ["n": 1.5])])
        #expect(capture.last == Self.op(["kind": "pushMany", "routes": [["name": "a"], ["name": "b", "n": 1.5]], "target": 1]))
        router.pushRemovingPrevious(route("c"))
        #expect(capture.last == Self.op(["kind": "pushRemovingPrevious", "route": ["name": "c"], "target": 1]))
        router.replaceCurrent(with: route("d"))
        #expect(capture.last == Self.op(["kind": "replaceCurrent", "route": ["name": "d"], "target": 1]))
        router.pop(count: 2)
        #expect(capture.last == Self.op(["kind": "pop", "count": 2, "target": 1]))
        router.push(route("e"))
        router.popTo(route("detail", ["id": "42"]), match: .inclusive)
        #expect(capture.last == Self.op(["kind": "popTo", "route": ["name": "detail", "id": "42"], "target": 1]))
        router.push(route("f"))
        router.popToRoot()
        #expect(capture.last == Self.op(["kind": "popToRoot", "target": 1]))
        router.replacePath(root: route("home"), path: [route("x"), route("y")])
        #expect(capture.last == Self.op([
            "kind": "replacePath", "route": ["name": "home"],
            "routes": [["name": "home"], ["name": "x"], ["name": "y"]], "target": 1,
        ]))
        #expect(capture.ops.count == 11)
        #expect(router.activeStack.path == [route("x"), route("y")])
    }

    @Test("Presentations are sheet or fullScreenCover; targets count stacks from 1")
    func presentations() throws {
        let capture = try Capture()
        let router = capture.rig.router
        router.sheet(route("picker"))
        #expect(capture.last == Self.op(["kind": "sheet", "route": ["name": "picker"]]))
        router.push(route("inner"))
        #expect(capture.last == Self.op(["kind": "push", "route": ["name": "inner"], "target": 2]))
        router.push(route("under"), on: .root)
        #expect(capture.last == Self.op(["kind": "push", "route": ["name": "under"], "target": 1]))
        router.fullScreenCover(route("cover"))
        #expect(capture.last == Self.op(["kind": "fullScreenCover", "route": ["name": "cover"]]))
        router.pop(on: .stack(router.stacks[1].id))
        #expect(capture.last == Self.op(["kind": "pop", "count": 1, "target": 2]))
        router.dismiss()
        #expect(capture.last == Self.op(["kind": "dismiss", "target": 3]))
        router.dismissAll()
        #expect(capture.last == Self.op(["kind": "dismissAll"]))
        #expect(router.stacks.count == 1)
        #expect(router.present(route("modal"), style: .fullScreenCover))
        #expect(capture.last == Self.op(["kind": "fullScreenCover", "route": ["name": "modal"]]))
    }

    @Test("source is deeplink for links and async is true in the async queue")
    func sourceAndAsync() async throws {
        let capture = try Capture()
        let router = capture.rig.router
        router.perform(.push(route("a"), target: .active), source: .deeplink)
        #expect(capture.last == Self.op(["kind": "push", "route": ["name": "a"], "target": 1, "source": "deeplink"]))
        #expect(await router.pushAsync(route("b")))
        #expect(capture.last == Self.op(["kind": "push", "route": ["name": "b"], "target": 1, "async": true]))
        #expect(await router.sheetAsync(route("c")))
        #expect(capture.last == Self.op(["kind": "sheet", "route": ["name": "c"], "async": true]))
        #expect(await router.pushAsync(contentsOf: [route("d"), route("e")]))
        #expect(capture.last == Self.op(["kind": "pushMany", "routes": [["name": "d"], ["name": "e"]], "target": 2, "async": true]))
        #expect(await router.dismissAllAsync())
        #expect(capture.last == Self.op(["kind": "dismissAll", "async": true]))
    }

    @Test("Fields of one decision do not leak into the next")
    func noStaleFields() throws {
        let rig = try RulesRig("""
            flow.precondition('*', function(op)
              host.log(op.kind, op.route and op.route.name, op.routes and #op.routes, op.count, op.target)
            end)
            """)
        rig.router.push(contentsOf: [route("a"), route("b")])
        rig.router.pop(count: 2)
        rig.router.sheet(route("s"))
        #expect(rig.log == ["pushMany nil 2 nil 1", "pop nil nil 2 1", "sheet s nil nil nil"])
    }

    @Test("op.route is read-only at every depth: a write fails and never reaches a later decision")
    func changedRouteTablesAreNotReused() throws {
        let rig = try RulesRig("""
            kept = nil
            flow.precondition("push", function(op)
              local route = op.route
              host.log(route.name, tostring(route.extra), tostring(getmetatable(route)), tostring(route == kept),
                tostring(route == op.route))
              if route.name == "a" then kept = route end
              if route.name == "b" then host.log(tostring(pcall(function() kept.extra = true end))) end
              if route.name == "c" then host.log(tostring(pcall(function() route.name = "renamed" end))) end
              if route.name == "d" then host.log(tostring(pcall(setmetatable, route, {}))) end
            end)
            """)
        for name in ["a", "a", "b", "a", "c", "c", "d", "a"] { #expect(rig.push(name).isApplied) }
        // Within a decision `op.route` is one read-only table (the last column); the next
        // decision gets a new one, and no write reaches any.
        #expect(rig.log == [
            "a nil read-only false true", "a nil read-only false true", "b nil read-only false true", "false",
            "a nil read-only false true", "c nil read-only false true", "false", "c nil read-only false true", "false",
            "d nil read-only false true", "false", "a nil read-only false true",
        ])
    }

    @Test("Payload values reach Lua with their types")
    func payloadTypes() throws {
        let rig = try RulesRig("""
            flow.guard('detail', function(op)
              local r = op.route
              host.log(math.type(r.id), math.type(r.ratio), type(r.flag), type(r.tags), r.tags[2], r.meta.k)
            end)
            """)
        rig.push("detail", ["id": 7, "ratio": 0.5, "flag": true, "tags": ["x", "y"], "meta": ["k": "v"]])
        #expect(rig.log == ["integer float boolean table y v"])
    }
}
