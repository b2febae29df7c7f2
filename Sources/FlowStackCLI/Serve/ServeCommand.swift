import ArgumentParser
import FlowLiveRulesServer
import FlowLua
import FlowRuleBundles
import FlowScript
import Foundation

/// `flowstack serve [DIR]`: serves the project's rules to apps in development, live.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the rules to a running app over HTTP, live, on every save.",
        discussion: """
            Watches DIR like `watch` and serves its rules (routes.lua and the
            files under rules/, nothing else: no generated types file) to apps
            that called engine.connect(to:token:) in a DEBUG build, on a device or
            a Simulator. Prints the URL, the token and the lines to paste into the
            app. On every save the rules are loaded first: a save that does not
            load is printed with file:line and not served (the last good rules
            stay); so is one an app would refuse (a symbolic link out of DIR, a
            file over 8 MiB, a bundle over 16 MiB). A clean one is served at once
            and the flow tests run, with a one-line summary. What each app loaded
            comes back and is printed ("iPhone 15 Simulator: generation 14
            loaded"), control characters escaped.

            It listens on 127.0.0.1 (this machine: the Simulator) unless --host
            says otherwise; --host 0.0.0.0 lets a device on the network connect
            and prints a warning that every device on the network can reach it.

            HTTP (every request needs `Authorization: Bearer TOKEN`, else 401):
              GET /v1/rules          200 with the rules as a bundle archive (the
                                     file `flowstack bundle --output` writes;
                                     unsigned unless --key is given) and an ETag
              GET /v1/rules?wait=S   with If-None-Match: ETAG, a long poll: 304
                                     when nothing loaded within S seconds (at
                                     most 60), 200 as soon as a save loads
              POST /v1/report        JSON {device, result, generation, error}
                                     from the app (at most 64 KiB); printed
            Limits, enforced while reading: headers 16 KiB and 64 lines (else
            431), bodies 64 KiB (else 413, before the body is read), chunk sizes
            of 1 to 16 hex digits (else 400), a request whole within 10 seconds,
            a connection idle for 30 seconds closed. At most 1,024 connections
            (fewer under a low `ulimit -n`): at the cap the oldest idle or
            unauthorized one is closed to make room; long polls are kept.

            The token is --token, else FLOWSTACK_SERVE_TOKEN, else a random one.
            Serve on a network you trust: the rules travel in plain HTTP.

            Examples:
              flowstack serve                          (serves ./Scripts to this machine)
              flowstack serve Scripts --port 8765 --token dev-secret
              flowstack serve Scripts --host 0.0.0.0   (a device on the network)
              flowstack serve Scripts --key rules.key  (signed, for apps that verify)
            """
    )

    @OptionGroup var project: ProjectArgument

    @Option(help: ArgumentHelp("The address to listen on: 127.0.0.1 is this machine only; 0.0.0.0 for devices on the network.", valueName: "ADDR"))
    var host: String = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (0: a free one, printed at start).", valueName: "N"))
    var port: UInt16 = 0

    @Option(help: ArgumentHelp("The token apps must send (default: FLOWSTACK_SERVE_TOKEN, else a random one).", valueName: "T"))
    var token: String?

    @Option(help: ArgumentHelp("Sign the served bundles with this private key (from `flowstack keygen`).", valueName: "KEY"))
    var key: String?

    @Option(help: .hidden)
    var requestTimeout: Double = 10

    @Option(help: .hidden)
    var idleTimeout: Double = 30

    @MainActor
    mutating func run() async throws {
        let url = try project.loadableURL()
        let terminal = Terminal.standardOutput
        let token = try resolvedToken()
        var signingKey: FlowRuleBundleSigningKey?
        if let key {
            do { signingKey = try BundleCommand.signingKey(at: key) } catch let failure as CommandFailure { throw failure } catch {
                throw CommandFailure("\(error)")
            }
        }
        guard requestTimeout > 0, idleTimeout > 0 else { throw CommandFailure("timeouts must be positive numbers of seconds") }
        var limits = ServeHTTPLimits()
        limits.requestTimeout = .milliseconds(Int(requestTimeout * 1000))
        limits.idleTimeout = .milliseconds(Int(idleTimeout * 1000))
        let hub = LiveRulesHub()
        let session = ServeSession(directory: url, name: project.directory, hub: hub, terminal: terminal, signingKey: signingKey)
        let server: FlowLiveRulesServer
        do throws(FlowLiveRulesServerError) {
            server = try FlowLiveRulesServer(
                host: host, port: port, token: token, hub: hub, limits: limits,
                notReady: { @MainActor in session.lastError ?? "the rules have not loaded" },
                onReport: { report in
                    terminal.line(ServeReportText.line(
                        device: report.device, result: report.result, generation: report.generation, error: report.error, terminal: terminal))
                },
                warn: { warning in terminal.line("[\(Terminal.clockTime())] " + terminal.yellow("warning: ") + warning) })
        } catch .notAnAddress {
            throw CommandFailure("--host \(host) is not an IP address: pass one such as 127.0.0.1, 0.0.0.0 or 192.168.1.20")
        } catch .cannotListen(let reason) {
            throw CommandFailure("cannot listen on \(host):\(port) (\(reason)); choose another --port or --host")
        }
        let boundPort = try server.port()
        let stopped = "stopped serving \(project.directory)"
        let stop = StopSignals { terminal.line(stopped) }
        defer { stop.cancel() }
        printBanner(port: boundPort, token: token, signed: signingKey != nil, terminal: terminal)
        await session.refresh()

        // Connections wait in the listen queue until the project is watched: a client that
        // takes every descriptor first cannot stop the watching from starting.
        var serving: Task<Void, any Error>?
        try await forEachSave(of: url, watching: {
            serving = Task { try await server.run() }
        }) {
            await session.refresh()
        }
        serving?.cancel()
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

    private var listenHost: String { FlowLiveRulesServer.listenHost(host) }

    /// Whether only this machine can reach the server.
    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1"
    }

    @MainActor
    private func printBanner(port: UInt16, token: String, signed: Bool, terminal: Terminal) {
        let address = listenHost
        let hosts = address == "0.0.0.0" || address == "::" ? ServeAddresses.localIPv4() + ["127.0.0.1"] : [address]
        let urls = hosts.map { "http://\(ServeAddresses.urlHost($0)):\(port)" }
        terminal.line(terminal.bold("flowstack serve: \(project.directory)") + (signed ? " (signed bundles)" : ""))
        for url in urls { terminal.line("url: \(url)") }
        terminal.line("token: \(token)")
        if !Self.isLoopback(address) {
            terminal.line(terminal.yellow("warning: ") + "listening on \(ServeAddresses.urlHost(address)): devices on the network can reach "
                + "this server (they still need the token); the rules travel in plain HTTP, so serve on a network you trust")
        }
        terminal.line("")
        if Self.isLoopback(address) {
            terminal.line("Paste into the app (the Simulator reaches this machine only; for a device, serve with --host 0.0.0.0):")
        } else {
            terminal.line("Paste into the app (a device uses the first URL; the Simulator can use 127.0.0.1):")
        }
        terminal.line("")
        terminal.line("    #if DEBUG")
        terminal.line("    engine.connect(to: URL(string: \"\(urls[0])\")!, token: \"\(token)\")")
        terminal.line("    #endif")
        terminal.line("")
        terminal.line("watching \(project.directory) (routes.lua, rules/, flows/); press Ctrl-C to stop")
    }
}
