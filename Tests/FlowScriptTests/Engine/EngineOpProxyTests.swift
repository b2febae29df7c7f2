import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// `op` and `ctx` are read-only views of the decision (clua_op.c): what rules can and cannot do
/// with them, and what host functions receive.
@Suite("Engine: op and ctx are read-only views")
@MainActor
struct EngineOpProxyTests {
    @Test("Writing to op or ctx is an error with file:line; the operation is blocked (fail closed)", arguments: [
        "op.kind = 'pop'",
        "op.extra = true",
        "op.route = nil",
        "ctx.dialog = 'x'",
        "ctx.generation = 0",
        "rawset(op, 'kind', 'pop')",
        "rawset(ctx, 'queuedDialogs', 3)",
        "setmetatable(op, nil)",
        "setmetatable(ctx, {})",
    ])
    func writesAreErrors(statement: String) throws {
        try expectReadOnlyWrite(statement)
    }

    @Test("A refused write changes nothing for the rules after it, nor for the next decision")
    func refusedWritesLeaveNoTrace() throws {
        let rig = try RulesRig("""
            flow.precondition("*", function(op, stacks, ctx)
              pcall(function() op.kind = "pop" end)
              pcall(rawset, op, "kind", "pop")
              pcall(setmetatable, op, nil)
              pcall(function() ctx.generation = -1 end)
            end)
            flow.precondition("*", function(op, stacks, ctx)
              host.log(op.kind, rawget(op, "kind"), getmetatable(op), getmetatable(ctx), ctx.generation)
            end)
            """)
        #expect(rig.push("a").isApplied)
        #expect(rig.router.pop())
        #expect(rig.log == ["push nil read-only read-only 1", "pop nil read-only read-only 1"])
    }

    @Test("pairs over op and ctx lists the fields that are set, and hands out no writable table")
    func pairsListsFields() throws {
        let rig = try RulesRig("""
            local function keys(t)
              local iterate, state = pairs(t)
              local list = {}
              for k, v in iterate, state do list[#list + 1] = k .. "=" .. (type(v) == "table" and v.name or tostring(v)) end
              table.sort(list)
              return table.concat(list, ","), tostring(state)
            end
            flow.precondition("*", function(op, stacks, ctx)
              host.log(keys(op))
              host.log(keys(ctx))
            end)
            """)
        #expect(rig.push("a").isApplied)
        rig.router.showGlobalDialog("alert")
        #expect(rig.router.pop(count: 1))
        #expect(rig.log == [
            "async=false,kind=push,route=a,source=code,target=1 nil", "generation=1,queuedDialogs=0 nil",
            "async=false,count=1,kind=pop,source=code,target=1 nil", "dialog=alert,generation=1,queuedDialogs=0 nil",
        ])
    }

    @Test("Unknown fields read nil; a route's table is made once per decision")
    func lazyFields() throws {
        let rig = try RulesRig("""
            flow.precondition("*", function(op, stacks, ctx)
              host.log(tostring(op.nothing), tostring(op[1]), tostring(ctx.other), #op, tostring(op.route == op.route),
                op.route and op.route.id or "-")
            end)
            """)
        #expect(rig.push("a").isApplied)
        #expect(rig.push("detail", ["id": "7"]).isApplied)
        #expect(rig.router.pop())
        #expect(rig.log == ["nil nil nil 0 true -", "nil nil nil 0 true 7", "nil nil nil 0 true -"])
    }

    @Test("Host functions receive op, ctx, stacks and facts as plain tables of their fields")
    func hostFunctionsReceiveCopies() throws {
        let rig = try RulesRig("""
            flow.precondition("push", function(op, stacks, ctx)
              host.capture(op, ctx, stacks, facts)
            end)
            """)
        var captured: [FlowScriptValue?] = []
        rig.engine.registerHost("capture") { arguments in
            captured = arguments
            return []
        }
        try rig.engine.setFacts(["isLoggedIn": true])
        #expect(rig.push("detail", ["id": "7"]).isApplied)
        #expect(captured.count == 4)
        #expect(captured[0] == .table([
            "kind": "push", "route": ["name": "detail", "id": "7"], "target": 1, "source": "code", "async": false,
        ]))
        #expect(captured[1] == .table(["queuedDialogs": 0, "generation": 1]))
        let stack = rig.router.stacks[0]
        #expect(captured[2] == .array([.table([
            "id": .string(stack.id.uuidString), "index": 1, "presentation": "root", "routes": [["name": "home"]],
        ])]))
        #expect(captured[3] == .table(["isLoggedIn": true]))
    }

    @Test("ctx follows the router from decision to decision: dialog shown and hidden, queue, generation")
    func ctxFollowsTheRouter() throws {
        let rig = try RulesRig("""
            flow.precondition("push", function(op, stacks, ctx)
              host.log(tostring(ctx.dialog), ctx.queuedDialogs, ctx.generation)
            end)
            """)
        #expect(rig.push("a").isApplied)
        rig.router.showGlobalDialog("alert")
        rig.router.showGlobalDialog("later", policy: .queue)
        #expect(rig.push("b").isApplied)
        rig.router.hideGlobalDialog()
        #expect(rig.push("c").isApplied)
        rig.router.hideGlobalDialog()
        #expect(rig.push("d").isApplied)
        guard case .loaded = rig.engine.reload() else {
            Issue.record("the rules must reload")
            return
        }
        #expect(rig.push("e").isApplied)
        #expect(rig.log == ["nil 0 1", "alert 1 1", "later 0 1", "nil 0 1", "nil 0 2"])
    }

    @Test("Fields an operation does not have read nil, whatever the decision before set them")
    func fieldsDoNotLeak() throws {
        let rig = try RulesRig("""
            flow.precondition("*", function(op, stacks, ctx)
              local routes = op.routes and #op.routes or "nil"
              host.log(op.kind, op.route and op.route.name or "nil", routes, tostring(ctx.dialog))
            end)
            """)
        #expect(rig.push("a").isApplied)
        #expect(rig.router.pop())
        #expect(rig.router.push(contentsOf: [route("b"), route("c")]))
        rig.router.showGlobalDialog("alert")
        #expect(rig.router.popToRoot())
        #expect(rig.push("d", ["id": "7"]).isApplied)
        rig.router.hideGlobalDialog()
        #expect(rig.router.pop())
        #expect(rig.log == [
            "push a nil nil", "pop nil nil nil", "pushMany nil 2 nil", "popToRoot nil nil alert",
            "push d nil alert", "pop nil nil nil",
        ])
    }

    @Test("Async decisions have their own op and ctx, read-only too")
    func asyncDecisions() async throws {
        let rig = try RulesRig("""
            flow.precondition("*", function(op, stacks, ctx)
              local ok, message = pcall(function() op.kind = "x" end)
              host.log(op.kind, tostring(op.async), tostring(ok), tostring(message):match("read%-only") or message)
            end)
            """)
        #expect(await rig.router.pushAsync(route("a")))
        #expect(rig.router.push(route("b")))
        #expect(rig.log == ["push true false read-only", "push false false read-only"])
    }
}
