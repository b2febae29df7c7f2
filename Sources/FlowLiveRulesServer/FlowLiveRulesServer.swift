import FlowLiveRules
import FlowRuleBundles
import FlyingSocks
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The live-rules server `flowstack serve` runs: the rules endpoints of `FlowLiveRulesProtocol`
/// over the hardened HTTP/1.1 server (`ServeHTTPServer`), serving what `publish` hands it.
package final class FlowLiveRulesServer: Sendable {
    private let http: ServeHTTPServer

    /// Binds and listens on `host` (an IPv4 or IPv6 address; `localhost` is 127.0.0.1) and
    /// `port` (0: a free one), serving what `hub` holds. Requests need `Authorization: Bearer
    /// token`; `notReady` says why no rules are served yet; `onReport` gets each app's report;
    /// `warn` a warning to print.
    package init(
        host: String, port: UInt16, token: String, hub: LiveRulesHub, limits: ServeHTTPLimits = ServeHTTPLimits(),
        notReady: @escaping @Sendable () async -> String,
        onReport: @escaping @Sendable (FlowLiveRulesProtocol.Report) -> Void,
        warn: @escaping @Sendable (String) -> Void
    ) throws(FlowLiveRulesServerError) {
        let address: any SocketAddress
        do {
            let ip = Self.listenHost(host)
            address = ip.contains(":") ? try sockaddr_in6.inet6(ip6: ip, port: port) : try sockaddr_in.inet(ip4: ip, port: port)
        } catch {
            throw .notAnAddress(host)
        }
        let endpoints = RulesEndpoints(hub: hub, token: token, onReport: onReport, notReady: notReady)
        do {
            http = try ServeHTTPServer(address: address, limits: limits, handler: endpoints, warn: warn)
        } catch {
            throw .cannotListen(error.localizedDescription)
        }
    }

    /// The address `host` names: `localhost` is 127.0.0.1, anything else as given.
    package static func listenHost(_ host: String) -> String {
        host == "localhost" ? "127.0.0.1" : host
    }

    /// The port the server listens on.
    package func port() throws -> UInt16 {
        try http.port()
    }

    /// Accepts and serves connections until cancelled. A client that goes away while a
    /// response is written does not end the process (SIGPIPE is ignored from here on).
    package func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        try await http.run()
    }
}

/// Why the live-rules server cannot start.
package enum FlowLiveRulesServerError: Error, Sendable {
    /// The host is not an IP address.
    case notAnAddress(String)
    /// Binding or listening failed (the port is taken, the address is not this machine's).
    case cannotListen(String)
}
