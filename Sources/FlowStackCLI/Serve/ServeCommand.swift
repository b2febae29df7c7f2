import ArgumentParser
import FlowScript
import FlyingFox
import FlyingSocks
import Foundation

/// `flowstack serve [DIR]`: serves the project's rules to apps in development, live.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the rules to a running app over HTTP, live, on every save.",
        discussion: """
            Watches DIR like `watch` and serves its rules (routes.lua and rules/)
            to apps that called engine.connect(to:token:) in a DEBUG build, on a
            device or a Simulator. Prints the URL, the token and the lines to
            paste into the app. On every save the rules are loaded first: a save
            that does not load is printed with file:line and not served (the last
            good rules stay); a clean one is served at once and the flow tests
            run, with a one-line summary. What each app loaded comes back and is
            printed ("iPhone 15 Simulator: generation 14 loaded").

            HTTP (every request needs `Authorization: Bearer TOKEN`, else 401):
              GET /v1/rules          200 with the rules as a bundle archive (the
                                     file `flowstack bundle --output` writes;
                                     unsigned unless --key is given) and an ETag
              GET /v1/rules?wait=S   with If-None-Match: ETAG, a long poll: 304
                                     when nothing loaded within S seconds (at
                                     most 60), 200 as soon as a save loads
              POST /v1/report        JSON {device, result, generation, error}
                                     from the app; printed

            The token is --token, else FLOWSTACK_SERVE_TOKEN, else a random one.
            Serve on a network you trust: the rules travel in plain HTTP.

            Examples:
              flowstack serve                          (serves ./Scripts on a free port)
              flowstack serve Scripts --port 8765 --token dev-secret
              flowstack serve Scripts --host 127.0.0.1   (Simulator only)
              flowstack serve Scripts --key rules.key    (signed, for apps that verify)
            """
    )

    @OptionGroup var project: ProjectArgument

    @Option(help: ArgumentHelp("The address to listen on (default: every IPv4 interface; 127.0.0.1 for this machine only).", valueName: "ADDR"))
    var host: String?

    @Option(help: ArgumentHelp("The port to listen on (default: a free one).", valueName: "N"))
    var port: UInt16 = 0

    @Option(help: ArgumentHelp("The token apps must send (default: FLOWSTACK_SERVE_TOKEN, else a random one).", valueName: "T"))
    var token: String?

    @Option(help: ArgumentHelp("Sign the served bundles with this private key (from `flowstack keygen`).", valueName: "KEY"))
    var key: String?

    @MainActor
    mutating func run() async throws {
        let url = project.url
        _ = try project.load()
        let terminal = Terminal.standardOutput
        let token = try resolvedToken()
        var signingKey: FlowRuleBundleSigningKey?
        if let key {
            do { signingKey = try FlowRuleBundleSigningKey(contentsOf: URL(fileURLWithPath: key)) } catch { throw CommandFailure(error.description) }
        }
        let hub = LiveRulesHub()
        let session = ServeSession(directory: url, name: project.directory, hub: hub, terminal: terminal, signingKey: signingKey)
        let server = HTTPServer(config: HTTPServer.Configuration(
            address: try listenAddress(), timeout: TimeInterval(RulesEndpoints.maximumWait + 15), logger: .disabled))
        let endpoints = RulesEndpoints(hub: hub, token: token, terminal: terminal, notReady: { @MainActor in
            session.lastError ?? "the rules have not loaded"
        })
        await endpoints.install(on: server)
        let serving = Task { try await server.run() }
        do {
            try await server.waitUntilListening(timeout: 10)
        } catch {
            serving.cancel()
            let reason = (try? await serving.value).map { _ in "\(error)" } ?? "\(error)"
            throw CommandFailure("cannot listen on \(host ?? "0.0.0.0"):\(port) (\(reason)); choose another --port or --host")
        }
        guard case .ip4(_, let boundPort)? = await server.listeningAddress ?? nil else {
            throw CommandFailure("the server did not report its port")
        }
        printBanner(port: boundPort, token: token, signed: signingKey != nil, terminal: terminal)
        await session.refresh()

        try await forEachSave(of: url, terminal: terminal, stopped: "stopped serving \(project.directory)") {
            await session.refresh()
        }
        serving.cancel()
    }

    private func resolvedToken() throws -> String {
        if let token {
            guard !token.isEmpty, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw CommandFailure("--token must be non-empty printable ASCII without spaces")
            }
            return token
        }
        if let token = ProcessInfo.processInfo.environment["FLOWSTACK_SERVE_TOKEN"], !token.isEmpty { return token }
        var bytes = [UInt8](repeating: 0, count: 18)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    private func listenAddress() throws -> any SocketAddress {
        guard let host else { return sockaddr_in.inet(port: port) }
        let address = host == "localhost" ? "127.0.0.1" : host
        do {
            return address.contains(":") ? try sockaddr_in6.inet6(ip6: address, port: port) : try sockaddr_in.inet(ip4: address, port: port)
        } catch {
            throw CommandFailure("--host \(host) is not an IP address: pass one such as 127.0.0.1, 0.0.0.0 or 192.168.1.20")
        }
    }

    @MainActor
    private func printBanner(port: UInt16, token: String, signed: Bool, terminal: Terminal) {
        let hosts: [String]
        if let host, host != "0.0.0.0", host != "::" {
            hosts = [host == "localhost" ? "127.0.0.1" : host]
        } else {
            hosts = ServeAddresses.localIPv4() + ["127.0.0.1"]
        }
        let urls = hosts.map { "http://\(ServeAddresses.urlHost($0)):\(port)" }
        terminal.line(terminal.bold("flowstack serve: \(project.directory)") + (signed ? " (signed bundles)" : ""))
        for url in urls { terminal.line("url: \(url)") }
        terminal.line("token: \(token)")
        terminal.line("")
        terminal.line("Paste into the app (a device uses the first URL; the Simulator can use 127.0.0.1):")
        terminal.line("")
        terminal.line("    #if DEBUG")
        terminal.line("    engine.connect(to: URL(string: \"\(urls[0])\")!, token: \"\(token)\")")
        terminal.line("    #endif")
        terminal.line("")
        terminal.line("watching \(project.directory) (routes.lua, rules/, flows/); press Ctrl-C to stop")
    }
}
