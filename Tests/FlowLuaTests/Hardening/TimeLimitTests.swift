import FlowLuaTestSupport
import Foundation
import Testing
@testable import FlowLua

/// The time limit: a backstop for work in C the instruction count cannot see.
@Suite("Hardening: time limit")
@MainActor
struct TimeLimitTests {
    /// Two equal 2 MiB strings that are different objects: each `==` compares every byte.
    /// (Building them is charged about 260,000 instructions, which buys about half a second.)
    nonisolated static let strings = "local k = ('x'):rep(1024) local a = k:rep(2048) local b = k:rep(2047) .. k\n"

    @Test("Comparing long strings in a loop stops at the time limit with the line", arguments: [
        "while a == b do end",
        "local t = { [a] = 1 } while t[b] do end",
        "while true do pcall(function() while a == b do end end) end",
        "while a <= b do end",
    ])
    func slowInstructionsStop(loop: String) throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 10_000_000, timeLimit: .milliseconds(200)))
        let started = ContinuousClock.now
        let error = scriptError(vm, Self.strings + loop, chunkName: "rules/slow.lua")
        #expect(error?.kind == .timeLimit, "\(error?.description ?? "no error")")
        #expect(error?.file == "rules/slow.lua")
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("time limit exceeded: the call ran for more than 200 ms beyond what its instructions account for") == true)
        // What to do is something a rules author can do: the limit is not part of the configuration.
        #expect(error?.message.hasSuffix("work on smaller values (the time limit is fixed)") == true, "\(error?.message ?? "")")
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(try run(vm, "return 1 + 1") == [2])
    }

    @Test("Time spent in host functions does not count")
    func hostTimeExcluded() throws {
        let vm = try LuaVM(configuration: .init(timeLimit: .milliseconds(100)))
        try vm.register("host.slow", returning: { _ in
            Thread.sleep(forTimeInterval: 0.06)
            return [.boolean(true)]
        })
        #expect(try run(vm, "local n = 0 for i = 1, 4 do if host.slow() then n = n + 1 end end return n") == [4])
    }

    @Test("Time spent suspended in an asynchronous host function does not count")
    func suspendedTimeExcluded() async throws {
        let vm = try LuaVM(configuration: .init(timeLimit: .milliseconds(100)))
        try vm.registerAsync("host.wait") { _ in
            try? await Task.sleep(for: .milliseconds(150))
            return [.integer(1)]
        }
        let function = try vm.load(source: "return host.wait() + host.wait()", chunkName: "rules/wait.lua")
        #expect(try await vm.callAsync(function) == [2])
    }

    @Test("Counted work does not reach the limit: it gets 2 µs per instruction on top")
    func countedWorkAllowed() throws {
        // 20 ms leaves room for the thread being descheduled before the first hook in a loaded
        // parallel run; the loop itself runs far longer than that (checked below), so it is
        // only the per-instruction allowance that lets it finish.
        let limit = Duration.milliseconds(20)
        let vm = try LuaVM(configuration: .init(instructionBudget: 100_000_000, timeLimit: limit))
        let started = ContinuousClock.now
        #expect(try run(vm, "local n = 0 for i = 1, 1e7 do n = n + i % 7 end return n > 0") == [true])
        #expect(ContinuousClock.now - started > limit)
    }

    @Test("No time limit when it is nil; the limit can be changed between calls")
    func configurable() throws {
        let vm = try LuaVM(configuration: .init(timeLimit: nil))
        #expect(vm.timeLimit == nil)
        vm.timeLimit = .milliseconds(250)
        #expect(vm.timeLimit == .milliseconds(250))
        vm.instructionBudget = 10_000_000
        let error = scriptError(vm, Self.strings + "while a == b do end")
        #expect(error?.kind == .timeLimit)
    }
}
