import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket on 127.0.0.1 that accepts connections (the kernel completes them) and never
/// answers: a silent server.
final class SilentListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try LoopbackSocket.listen()
    }

    func close() {
        LoopbackSocket.close(descriptor)
    }
}
