// A server that never answers. Not a product: never shipped.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket on 127.0.0.1 that accepts connections (the kernel completes them) and never
/// answers: a silent server.
public final class SilentListener {
    /// The port it listens on.
    public let port: Int
    private let descriptor: Int32

    /// Opens the socket.
    public init() throws {
        (descriptor, port) = try LoopbackSocket.listen()
    }

    private var isClosed = false

    /// Closes the socket (once: a second call does nothing, so it never closes a descriptor
    /// number the system has given to someone else since).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        LoopbackSocket.close(descriptor)
    }
}
