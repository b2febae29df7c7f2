import FlowLuaTestSupport
import FlowStackCore
import Testing
@testable import FlowLua
@testable import FlowScript

/// The contracts between the rules prelude (Lua), the C boundary and Swift that used to be
/// positional: each is handed over by name or derived from one list, and checked when the
/// prelude loads.
@Suite("Prelude contracts: Lua, C and Swift agree by name")
@MainActor
struct PreludeContractTests {
    /// A VM with `decider` and `stackKit` installed as globals, and `kit` and `state(...)`
    /// defined: the kit and the state the prelude hands them, which a test then spoils.
    func vm() throws -> LuaVM {
        let vm = try LuaVM()
        try vm.installNativeFunction(.decider, at: "decider")
        try vm.installNativeFunction(.stackKit, at: "stackKit")
        _ = try run(vm, """
            local function none() end
            function kit() return { readOnly = none, pairs = none, stackInfo = none, routeAt = none } end
            function state()
              local makeStacks = stackKit(kit())
              local stacks, syncState = makeStacks(0, 0, 0)
              return { kinds = { "push" }, sources = { "code" }, defaults = {}, guards = {}, syncStacks = stacks,
                makeStacks = makeStacks, redirect = {}, syncState = syncState }
            end
            """)
        return vm
    }

    @Test("decider names a state entry the prelude left out")
    func missingStateName() throws {
        let error = scriptError(try vm(), "local s = state(); s.sources = nil; decider(s)")
        #expect(error?.message.contains("decider: the table the prelude passes has no 'sources' (table expected)") == true)
    }

    @Test("decider names a state entry of the wrong type")
    func mistypedStateName() throws {
        let error = scriptError(try vm(), "local s = state(); s.makeStacks = {}; decider(s)")
        #expect(error?.message.contains("decider: the table the prelude passes has table 'makeStacks' (function expected)") == true)
    }

    @Test("decider names a state entry it does not know")
    func unknownStateName() throws {
        let error = scriptError(try vm(), "local s = state(); s.syncOp = {}; decider(s)")
        #expect(error?.message.contains("decider: the table the prelude passes has 'syncOp', a name decider does not know") == true)
    }

    @Test("stackKit names a kit entry the prelude left out")
    func missingKitName() throws {
        let error = scriptError(try vm(), "local k = kit(); k.routeAt = nil; stackKit(k)")
        #expect(error?.message.contains("stackKit: the table the prelude passes has no 'routeAt' (function expected)") == true)
    }

    @Test("The decide function is recognised as the one decider made last, not by the shape of its upvalues")
    func decideRecognisedByIdentity() throws {
        let vm = try vm()
        let results = try run(vm, "local first = decider(state()); local second, running = decider(state()); return first, second, running")
        guard results.count == 3, case .function(let first) = results[0], case .function(let second) = results[1],
              case .function(let running) = results[2] else {
            Issue.record("decider did not return its functions: \(results)")
            return
        }
        #expect(vm.decisionArgumentsPointer(of: second) != nil)
        #expect(vm.decisionArgumentsPointer(of: first) == nil)
        #expect(vm.decisionArgumentsPointer(of: running) == nil)
    }

    @Test("A well-formed state makes a decide that allows when no rule is registered")
    func wellFormedState() throws {
        let vm = try vm()
        let results = try run(vm, """
            local decide = decider(state())
            return decide("home", nil, nil)
            """)
        #expect(results == [.integer(0)])
    }

    @Test("The prelude's SOURCES hold each source at the position Swift writes for it")
    func sourcesMatchTheirIndex() {
        for source in [FlowOperationSource.code, .user, .deeplink] {
            #expect(FlowRulesPrelude.sources[FlowRulesPrelude.sourcePosition(source) - 1] == source)
        }
        #expect(FlowRulesPrelude.sources.count == Set(FlowRulesPrelude.sources).count)
    }

    @Test("Every command's kind number names its kind in KINDS")
    func kindNumbersMatchNames() throws {
        let commands: [FlowCommand<String>] = [
            FlowCommand(.setRoot("a")), FlowCommand(.push("a", target: .active)),
            try #require(FlowCommand.pushMany(["a", "b"])), FlowCommand(.pushRemovingPrevious("a", target: .active)),
            FlowCommand(.replaceCurrent("a", target: .active)), FlowCommand(.replacePath(root: "a", path: [], target: .active)),
            FlowCommand(.pop(count: 1, target: .active)), FlowCommand(.popToRoot(target: .active)),
            FlowCommand(.popTo("a", match: .exclusive, target: .active)), FlowCommand(.present("a", style: .sheet)),
            FlowCommand(.present("a", style: .fullScreenCover)), FlowCommand(.dismiss(target: .active)), FlowCommand(.dismissAll),
            FlowCommand.selectTab("feed"),
        ]
        #expect(Set(commands.map(\.kindName)) == Set(FlowRuleKind.allCases.map(\.rawValue)))
        for command in commands {
            let kind = FlowRuleKind(command)
            #expect(FlowRuleKind.allCases[kind.position - 1] == kind)
            #expect(kind.rawValue == command.kindName)
        }
    }
}
