import Foundation

/// Micro-benchmarks of the Lua layer, for `flowstack-bench` (`@_spi(Benchmarks) import FlowLua`).
@_spi(Benchmarks)
public enum LuaVMBenchmarks {
    /// Figures of one benchmark run, in nanoseconds per call.
    public struct Figures: Sendable {
        /// A protected call of `function() end` from Swift.
        public var emptyCall: Double
        /// A call of a guard-like function with a small `op` table built on the hot path, reading a boolean result.
        public var guardCall: Double
        /// A call of a function that calls a registered Swift host function once.
        public var hostFunctionCall: Double
        /// Bytes the VM held after the runs.
        public var memoryInUse: Int
    }

    /// Runs each benchmark `iterations` times and returns the mean cost per call.
    @MainActor
    public static func run(iterations: Int = 1_000_000) throws -> Figures {
        let vm = try LuaVM()
        defer { vm.close() }
        try vm.register("host.flag") { _, writer in
            writer.push(true)
            return 1
        }
        let empty = try vm.load(source: "return function() end", chunkName: "bench.lua")
        let guardChunk = try vm.load(
            source: "return function(op) return op.kind == 'push' and op.route.name ~= 'paywall' end", chunkName: "bench.lua")
        let hostChunk = try vm.load(source: "return function() return host.flag() end", chunkName: "bench.lua")
        guard let emptyFunction = try vm.call(empty, []).first?.functionValue,
              let guardFunction = try vm.call(guardChunk, []).first?.functionValue,
              let hostFunction = try vm.call(hostChunk, []).first?.functionValue
        else { throw FlowScriptError(kind: .badReturn, message: "benchmark chunks did not return functions") }

        let emptyCall = try measure(iterations) { () throws(FlowScriptError) in try vm.call(emptyFunction) }
        var allowed = 0
        let guardCall = try measure(iterations) { () throws(FlowScriptError) in
            let result = try vm.call(guardFunction, arguments: { writer in
                writer.pushTable(fieldCount: 3) { op in
                    op.set("kind", "push")
                    op.set("source", "code")
                    op.setTable("route", fieldCount: 1) { route in route.set("name", "detail") }
                }
            }, results: { results in results.isTruthy(at: 1) })
            if result { allowed += 1 }
        }
        let hostFunctionCall = try measure(iterations) { () throws(FlowScriptError) in try vm.call(hostFunction) }
        guard allowed >= iterations else {
            throw FlowScriptError(kind: .badReturn, message: "the guard benchmark returned false")
        }
        return Figures(emptyCall: emptyCall, guardCall: guardCall, hostFunctionCall: hostFunctionCall, memoryInUse: vm.memoryInUse)
    }

    /// Mean nanoseconds per run of `body`.
    @MainActor
    private static func measure(_ iterations: Int, _ body: () throws(FlowScriptError) -> Void) throws(FlowScriptError) -> Double {
        for _ in 0..<min(iterations, 10_000) { try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { try body() }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        return Double(elapsed) / Double(max(iterations, 1))
    }
}
