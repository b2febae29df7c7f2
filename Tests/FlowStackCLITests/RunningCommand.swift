import FlowStackTestSupport
import Foundation

/// A `flowstack` command running in the background (`watch`, `serve`), its output collected as
/// it arrives; `stop()` interrupts it and waits for it to end.
final class RunningCommand {
    /// Everything the command printed so far (standard output and error).
    let output = LineCollector()
    private let process = Process()
    private let pipe = Pipe()

    /// Starts `flowstack` with `arguments`, and `environment` added to this process's.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        guard let binary = CLIRunner.binary else { throw CLIRunner.MissingBinary() }
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = pipe
        process.standardError = pipe
        let output = self.output
        pipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        try process.run()
    }

    /// Processor seconds the command used so far (Linux: /proc/<pid>/stat; 0 elsewhere or once
    /// it ended).
    var processorSeconds: Double {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let end = text.lastIndex(of: ")") else { return 0 }
        // After the command's name: state is field 3, utime and stime fields 14 and 15.
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Interrupts the command (Ctrl-C, or with `terminate` SIGTERM), waits for it to end and
    /// returns how it ended: its exit status, or nil when it was ended by a signal (it had no
    /// handler yet, or it was killed after 20 s, so a test never hangs here).
    @discardableResult
    func stop(terminate: Bool = false) -> Int32? {
        if terminate { process.terminate() } else { process.interrupt() }
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // The reading thread may not have seen the last lines yet: read what is left up to the
        // end of the pipe (this process's writing end closed, the command's gone with it).
        pipe.fileHandleForReading.readabilityHandler = nil
        try? pipe.fileHandleForWriting.close()
        output.append(pipe.fileHandleForReading.readDataToEndOfFile())
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }
}

/// Collects a process's output as it arrives, from the pipe's reading thread.
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()

    func append(_ data: Data) {
        lock.lock()
        buffer.append(data)
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Waits until a line contains `fragment`; returns it, or nil after `timeout` seconds.
    func waitForLine(containing fragment: String, timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = text.split(separator: "\n").first(where: { $0.contains(fragment) }) { return String(line) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }
}

