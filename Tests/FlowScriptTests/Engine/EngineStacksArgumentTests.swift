import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §1 "stack"/"stacks" and §2 "Decisions": the `stacks` and `ctx` arguments of a rule.
@Suite("Engine: stacks and ctx arguments")
@MainActor
struct EngineStacksArgumentTests {
    /// Rules that copy `stacks` into plain tables (through `ipairs`) and hand them to Swift.
    static let copyingRules = """
        local function copy(stacks)
          local list = {}
          for i, stack in ipairs(stacks) do
            local routes = {}
            for j, r in ipairs(stack.routes) do routes[j] = r end
            list[i] = { id = stack.id, index = stack.index, presentation = stack.presentation,
                        routes = routes, count = #stack.routes }
          end
          return list
        end
        flow.guard("probe", function(op, stacks, ctx)
          host.capture(copy(stacks), #stacks)
        end)
        """

    func captureRig() throws -> (RulesRig, () -> [FlowScriptValue?]) {
        let rig = try RulesRig(Self.copyingRules)
        var captured: [FlowScriptValue?] = []
        rig.engine.registerHost("capture") { arguments in
            captured = arguments
            return []
        }
        return (rig, { captured })
    }

    static func expected(_ stacks: [FlowStackState<FlowRouteValue>]) -> FlowScriptValue {
        .array(stacks.enumerated().map { offset, stack in
            let routes = stack.routes.map { route -> FlowScriptValue in
                var fields = route.payload
                fields["name"] = .string(route.name)
                return .table(fields)
            }
            return .table([
                "id": .string(stack.id.uuidString), "index": .int(offset + 1),
                "presentation": .string(stack.style.rawValue), "routes": .array(routes), "count": .int(routes.count),
            ])
        })
    }

    @Test("stacks: root stack first, routes[1] is the root screen, the state before the operation")
    func stacksShape() throws {
        let (rig, captured) = try captureRig()
        let router = rig.router
        router.push(route("list"))
        router.push(route("detail", ["id": "9"]))
        router.sheet(route("picker"))
        router.push(route("step"))
        router.fullScreenCover(route("cover"))
        let before = router.stacks
        #expect(router.push(route("probe")))
        let values = captured()
        #expect(values.count == 2)
        #expect(values.first == Self.expected(before))
        #expect(values.last == .int(3))
        guard case .array(let stacks)? = values.first, case .table(let sheet) = stacks[1] else {
            Issue.record("no stacks captured")
            return
        }
        #expect(sheet["presentation"] == "sheet")
        #expect(sheet["routes"] == [["name": "picker"], ["name": "step"]])
    }

    @Test("pairs, # and out-of-range indexes behave like a plain array")
    func pairsAndBounds() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function(op, stacks)
              local keys = {}
              for k, v in pairs(stacks) do keys[#keys + 1] = k .. ":" .. v.presentation end
              local names = {}
              for k, r in pairs(stacks[1].routes) do names[#names + 1] = k .. "=" .. r.name end
              host.log(table.concat(keys, ","), table.concat(names, ","), tostring(stacks[0]), tostring(stacks[3]),
                tostring(stacks.first), tostring(stacks[1].routes[0]), tostring(stacks[1].routes[4]),
                #stacks[2].routes)
            end)
            """)
        rig.router.push(route("a"))
        rig.router.push(route("b"))
        rig.router.sheet(route("s"))
        rig.router.push(route("probe"))
        #expect(rig.log == ["1:root,2:sheet 1=home,2=a,3=b nil nil nil nil nil 1"])
    }

    @Test("A deep stack is read correctly at both ends")
    func deepStack() throws {
        let path = (1...1_000).map { route("s\($0)") }
        let rig = try RulesRig("""
            flow.guard("probe", function(op, stacks)
              local routes = stacks[1].routes
              host.log(#routes, routes[1].name, routes[2].name, routes[#routes].name, stacks[#stacks].index)
            end)
            """)
        #expect(rig.router.replacePath(root: route("home"), path: path))
        rig.router.push(route("probe"))
        #expect(rig.log == ["1001 home s1 s1000 1"])
    }

    @Test("Writing to stacks is an error with the rule's file:line", arguments: [
        "stacks[1] = nil",
        "stacks[5] = {}",
        "stacks.extra = true",
        "stacks[1].routes = {}",
        "stacks[1].id = 'other'",
        "stacks[1].presentation = 'sheet'",
        "stacks[1].routes[1] = 'login'",
        "stacks[1].routes[2] = { name = 'x' }",
        "table.insert(stacks[1].routes, 'x')",
        "setmetatable(stacks, nil)",
        "setmetatable(stacks[1], nil)",
        "setmetatable(stacks[1].routes, {})",
    ])
    func stacksAreReadOnly(statement: String) throws {
        try expectReadOnlyWrite(statement)
    }

    @Test("Stack views follow the router from one decision to the next: count, ids, presentations, lengths")
    func viewsAcrossDecisions() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function(op, stacks)
              local front = stacks[#stacks]
              host.log(#stacks, front.id, front.presentation, #front.routes, #stacks[1].routes,
                front.routes[#front.routes].name, stacks[1].id)
            end)
            """)
        let router = rig.router
        func expected(_ top: String) -> String {
            let stacks = router.stacks
            let front = stacks[stacks.count - 1]
            return "\(stacks.count) \(front.id.uuidString) \(front.style.rawValue) \(front.pathCount + 1) "
                + "\(stacks[0].pathCount + 1) \(top) \(stacks[0].id.uuidString)"
        }
        var wanted: [String] = []
        wanted.append(expected("home"))
        #expect(rig.push("probe").isApplied)
        router.sheet(route("s1"))
        wanted.append(expected("s1"))
        #expect(rig.push("probe").isApplied)
        router.dismiss()
        router.fullScreenCover(route("c1"))
        wanted.append(expected("c1"))
        #expect(rig.push("probe").isApplied)
        router.dismiss()
        router.pop()
        router.setRoot(route("other"))
        wanted.append(expected("other"))
        #expect(rig.push("probe").isApplied)
        #expect(rig.log == wanted)
        // Every sheet and cover had an identity of its own, and setRoot gave the root a new one.
        #expect(Set(rig.log.map { $0.split(separator: " ")[1] }).count == 4)
    }

    @Test("A stack that is gone reads nil in later decisions; a new one at its place gets a fresh view")
    func viewsOfGoneStacks() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function(op, stacks)
              local second = stacks[2]
              host.log(#stacks, second and second.id or "none", second and #second.routes or 0,
                second and second.presentation or "-")
            end)
            """)
        let router = rig.router
        router.sheet(route("s1"), path: [route("a")])
        let first = router.stacks[1].id.uuidString
        #expect(rig.push("probe").isApplied)
        router.dismissAll()
        #expect(rig.push("probe").isApplied)
        router.fullScreenCover(route("c1"))
        let second = router.stacks[1].id.uuidString
        #expect(rig.push("probe").isApplied)
        #expect(rig.log == ["2 \(first) 2 sheet", "1 none 0 -", "2 \(second) 1 fullScreenCover"])
    }

    @Test("pairs over a stack table hands out no table a rule could write to")
    func stackPairsStayReadOnly() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function(op, stacks)
              local iterate, state = pairs(stacks[1])
              local count = 0
              for key, value in iterate, state do count = count + 1 end
              host.log(tostring(state), count)
            end)
            flow.guard("probe", function(op, stacks)
              host.log(stacks[1].index, stacks[1].presentation)
            end)
            """)
        #expect(rig.push("probe").isApplied)
        #expect(rig.log == ["nil 4", "1 root"])
    }

    @Test("A stack table lists its fields with pairs; a failed write does not reach later rules")
    func stackTablesAreViews() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function(op, stacks)
              local keys = {}
              for k in pairs(stacks[1]) do keys[#keys + 1] = k end
              table.sort(keys)
              host.log(table.concat(keys, ","))
              pcall(function() stacks[1].routes = nil end)
            end)
            flow.guard("probe", function(op, stacks)
              host.log(type(stacks[1].routes), stacks[1].routes[1].name, stacks[1].index)
            end)
            """)
        #expect(rig.push("probe").isApplied)
        #expect(rig.log == ["id,index,presentation,routes", "table home 1"])
    }

    @Test("An async rule reads one consistent snapshot across a suspension")
    func asyncSnapshot() async throws {
        let latch = HostLatch()
        let rig = try RulesRig("""
            flow.guard("probe", function(op, stacks)
              local before = #stacks[1].routes
              host.wait()
              host.log(before, #stacks[1].routes, stacks[1].routes[#stacks[1].routes].name)
            end)
            """)
        rig.engine.registerAsyncHost("wait") { _ in [await latch.wait()] }
        rig.router.push(route("a"))
        let task = Task { @MainActor in await rig.router.pushAsync(route("probe")) }
        await latch.waitForArrivals(1)
        #expect(latch.arrivals == 1)
        #expect(rig.router.push(route("b")), "another task may navigate while the rule waits")
        latch.resume(with: nil)
        _ = await task.value
        #expect(rig.log == ["2 2 a"])
    }

    @Test("ctx: the visible dialog, the queued count and the rules generation")
    func context() throws {
        let rig = try RulesRig("""
            flow.precondition("*", function(op, stacks, ctx)
              host.log(tostring(ctx.dialog), ctx.queuedDialogs, ctx.generation)
            end)
            """)
        rig.router.push(route("a"))
        rig.router.showGlobalDialog("networkError")
        rig.router.showGlobalDialog("sessionExpired", policy: .queue)
        rig.router.showGlobalDialog("rateLimited", policy: .queue)
        rig.router.push(route("b"))
        rig.engine.reload()
        rig.router.hideGlobalDialog()
        rig.router.push(route("c"))
        rig.router.clearGlobalDialogs()
        rig.router.push(route("d"))
        #expect(rig.log == ["nil 0 1", "networkError 2 1", "sessionExpired 1 2", "nil 0 2"])
    }
}

