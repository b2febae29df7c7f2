import FlowStackCore
import Foundation
import Logging
import Testing
@testable import FlowScript

/// Collects what a `Logger` receives.
final class LogSink: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [(Logger.Level, String, Logger.Metadata?)] = []

    /// Every message so far, with its level and metadata.
    var entries: [(Logger.Level, String, Logger.Metadata?)] {
        lock.withLock { storage }
    }

    func append(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata?) {
        lock.withLock { storage.append((level, message, metadata)) }
    }

    /// A logger writing here.
    func logger() -> Logger {
        var logger = Logger(label: "FlowScriptTests") { _ in SinkHandler(sink: self) }
        logger.logLevel = .trace
        return logger
    }
}

/// A log handler that appends to a `LogSink`.
struct SinkHandler: LogHandler {
    let sink: LogSink
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        sink.append(event.level, event.message.description, event.metadata)
    }
}

/// Diagnostics go through swift-log, with the scripts' `print` output included.
@Suite("Engine: logging")
@MainActor
struct EngineLoggingTests {
    @Test("print output goes to the logger (marked as print), not only to onPrint")
    func printToLogger() throws {
        let sink = LogSink()
        let rig = try RulesRig("""
            print("rules loading")
            flow.guard("editor", function() print("guarding", 1) end)
            """, configuration: FlowRulesConfiguration(logger: sink.logger()))
        rig.push("editor")
        let printed = sink.entries.filter { $0.2?["source"] == "print" }.map(\.1)
        #expect(printed == ["rules loading", "guarding\t1"])
    }

    @Test("Failed rules, failed reloads and style warnings are logged")
    func diagnosticsLogged() throws {
        let sink = LogSink()
        let rig = try RulesRig("""
            flow.guard("editor", function() error("broken guard") end)
            flow.style.screen(function() return { tnt = "red" } end)
            """, configuration: FlowRulesConfiguration(logger: sink.logger()))
        rig.push("editor")
        _ = rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0)
        rig.engine.reload(sources: [FlowRulesSource(name: "rules/x.lua", text: "syntax error here")])
        let errors = sink.entries.filter { $0.0 == .error }.map(\.1)
        #expect(errors.contains { $0.contains("rules/test.lua:1: broken guard") }, "\(errors)")
        #expect(errors.contains { $0.contains("rules reload failed") && $0.contains("rules/x.lua:1:") }, "\(errors)")
        let warnings = sink.entries.filter { $0.0 == .warning }.map(\.1)
        #expect(warnings.contains { $0.contains("tnt") }, "\(warnings)")
    }
}
