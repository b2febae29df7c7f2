// Loopback sockets for the tests' servers. Not a product: never shipped.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening TCP socket on 127.0.0.1 at a port the kernel picks: what the tests' silent and
/// stalled servers are made of.
public enum LoopbackSocket {
    /// The socket could not be made, bound or put to listen.
    public struct Failure: Error {}

    /// Opens, binds and listens; returns the descriptor and the port.
    public static func listen() throws -> (descriptor: Int32, port: Int) {
        #if canImport(Glibc)
        let kind = Int32(SOCK_STREAM.rawValue)
        #else
        let kind = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, kind, 0)
        guard descriptor >= 0 else { throw Failure() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #if canImport(Glibc)
        let listening = Glibc.listen(descriptor, 16)
        #else
        let listening = Darwin.listen(descriptor, 16)
        #endif
        guard bound == 0, listening == 0 else {
            close(descriptor)
            throw Failure()
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Closes a descriptor.
    public static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}
