import Foundation

/// What a child process printed, collected from its pipe's reading thread.
public final class OutputSink: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    /// An empty sink.
    public init() {}

    /// Appends bytes the pipe delivered (called on the pipe's reading thread).
    public func append(_ bytes: Data) {
        lock.lock()
        data.append(bytes)
        lock.unlock()
    }

    /// Everything printed so far, as UTF-8 text.
    public var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Collects everything `pipe` delivers from now on.
    public func collect(_ pipe: Pipe) {
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in append(handle.availableData) }
    }
}
