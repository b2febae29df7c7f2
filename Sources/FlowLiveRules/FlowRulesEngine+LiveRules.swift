#if DEBUG
import FlowRuleBundles
import FlowScript
import FlowStackCore
import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FlowRulesEngine {
    /// Live rules during development (DEBUG builds only): follows `flowstack serve` on the
    /// developer's machine and loads every clean save.
    ///
    /// ```swift
    /// #if DEBUG
    /// engine.connect(to: URL(string: "http://192.168.1.20:8765")!, token: "k3J…")
    /// #endif
    /// ```
    ///
    /// The connection long-polls `GET /v1/rules` off the main actor, checks each new bundle's
    /// files against its manifest (and its signature when `options.verifier` is set), loads it
    /// with `reload(sources:)` — atomic: rules that do not load change nothing — and reports the
    /// result and the generation in force with `POST /v1/report`, so the developer's terminal
    /// shows what the device runs. Network errors are retried with doubling waits; a silent
    /// server never blocks the main actor. Only the reload runs on the main actor.
    ///
    /// Connecting again replaces the previous connection. It stops on `disconnect()`, or when
    /// the engine goes away. The method does not exist in release builds, so an app cannot
    /// ship with it: release builds load signed bundles only (`FlowRuleBundleStore`).
    @discardableResult
    public func connect(
        to url: URL,
        token: String,
        options: FlowLiveRulesOptions = FlowLiveRulesOptions(),
        onEvent: (@MainActor @Sendable (FlowLiveRulesEvent) -> Void)? = nil
    ) -> FlowLiveRulesConnection {
        disconnect()
        let target = FlowLiveRulesTarget(engine: self, onEvent: onEvent)
        let logger = configuration.logger
        let follower: any FlowLiveRulesFollower = target
        let task = Task.detached {
            await follower.follow(url: url, token: token, options: options, logger: logger)
        }
        let connection = FlowLiveRulesConnection(url: url, task: task)
        liveConnection = FlowLiveRulesLink(connection)
        logger.info("live rules: connecting to \(url.absoluteString)")
        return connection
    }

    /// Stops the live-rules connection, if any; the rules in force stay.
    public func disconnect() {
        (liveConnection as? FlowLiveRulesLink)?.connection.cancel()
        liveConnection = nil
    }

    /// The live-rules connection, if connected.
    public var liveRulesConnection: FlowLiveRulesConnection? {
        (liveConnection as? FlowLiveRulesLink)?.connection
    }

    /// The polling loop; runs off the main actor until cancelled or the engine is gone.
    nonisolated static func followLiveRules(
        url: URL, token: String, options: FlowLiveRulesOptions, target: FlowLiveRulesTarget<Route>, logger: Logger
    ) async {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = TimeInterval(options.wait + 15)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { FlowHTTP.end(session) }
        var etag: String?
        var backoff = options.minimumBackoff
        var lastProblem: FlowLiveRulesEvent?
        while !Task.isCancelled {
            let event: FlowLiveRulesEvent?
            do {
                let response = try await FlowHTTP.send(
                    rulesRequest(url: url, token: token, etag: etag, wait: options.wait), session: session)
                switch response.status {
                case 200:
                    backoff = options.minimumBackoff
                    etag = response.header("etag")
                    event = await apply(response.body, options: options, target: target, url: url, token: token, session: session)
                    guard event != nil else { return }
                    if etag == nil {
                        // A server without ETags cannot long-poll: ask again after a pause, not at once.
                        do { try await Task.sleep(for: options.maximumBackoff) } catch { return }
                    }
                case 304:
                    backoff = options.minimumBackoff
                    continue
                case 401:
                    event = .unauthorized
                default:
                    event = .unreachable("the server answered \(response.status)")
                }
            } catch is CancellationError {
                return
            } catch {
                event = .unreachable(error.localizedDescription)
            }
            guard let event else { continue }
            let problem = event == .unauthorized || { if case .unreachable = event { true } else { false } }()
            if !problem || event != lastProblem {
                logger.log(level: problem ? .warning : .info, "\(event.description)")
                let alive = await MainActor.run { () -> Bool in
                    target.onEvent?(event)
                    return target.engine != nil
                }
                guard alive else { return }
            }
            guard problem else {
                lastProblem = nil
                continue
            }
            lastProblem = event
            do { try await Task.sleep(for: backoff) } catch { return }
            backoff = min(backoff * 2, options.maximumBackoff)
        }
    }

    /// Checks and loads one bundle; reports the result to the server. `nil` when the engine is gone.
    nonisolated private static func apply(
        _ body: Data, options: FlowLiveRulesOptions, target: FlowLiveRulesTarget<Route>,
        url: URL, token: String, session: URLSession
    ) async -> FlowLiveRulesEvent? {
        let sources: [FlowRulesSource]
        do {
            let archive = try FlowRuleBundleArchive(data: body)
            if let verifier = options.verifier {
                _ = try verifier.verify(archive: archive, name: "the served rules")
            } else {
                _ = try archive.checkedAgainstManifest()
            }
            sources = try FlowRulesSource.rules(
                from: archive.files.keys.sorted(by: FlowRuleBundleManifest.lexicallyPrecedes).map { ($0, archive.files[$0] ?? Data()) },
                prefix: "")
        } catch let error as FlowRuleBundleError {
            let event = FlowLiveRulesEvent.refused(error.description)
            await report(event, generation: nil, options: options, url: url, token: token, session: session)
            return event
        } catch {
            let event = FlowLiveRulesEvent.refused("\(error)")
            await report(event, generation: nil, options: options, url: url, token: token, session: session)
            return event
        }
        let applied = await MainActor.run { () -> (FlowLiveRulesEvent, Int)? in
            guard let engine = target.engine else { return nil }
            switch engine.reload(sources: sources) {
            case .loaded(let generation): return (.loaded(generation: generation), generation)
            case .failed(let error, let kept): return (.failed(error, keptGeneration: kept), kept)
            }
        }
        guard let (event, generation) = applied else { return nil }
        await report(event, generation: generation, options: options, url: url, token: token, session: session)
        return event
    }

    /// `GET /v1/rules?wait=S` with the token and the last ETag.
    nonisolated static func rulesRequest(url: URL, token: String, etag: String?, wait: Int) -> URLRequest {
        var components = URLComponents(url: url.appendingPathComponent(FlowLiveRulesProtocol.rulesPath), resolvingAgainstBaseURL: false)
        if etag != nil { components?.queryItems = [URLQueryItem(name: FlowLiveRulesProtocol.waitField, value: String(wait))] }
        var request = URLRequest(url: components?.url ?? url, cachePolicy: .reloadIgnoringLocalCacheData,
                                 timeoutInterval: TimeInterval(wait + 15))
        request.setValue(FlowLiveRulesProtocol.authorizationPrefix + token, forHTTPHeaderField: "Authorization")
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        return request
    }

    /// `POST /v1/report`: the device, the result and the generation in force (best effort).
    nonisolated private static func report(
        _ event: FlowLiveRulesEvent, generation: Int?, options: FlowLiveRulesOptions, url: URL, token: String, session: URLSession
    ) async {
        var report = FlowLiveRulesProtocol.Report(device: options.device, result: nil, generation: generation.map(String.init), error: nil)
        switch event {
        case .loaded: report.result = "loaded"
        case .failed(let error, _): report.result = "failed"; report.error = error.description
        case .refused(let detail): report.result = "refused"; report.error = detail
        case .unauthorized, .unreachable: return
        }
        var request = URLRequest(
            url: url.appendingPathComponent(FlowLiveRulesProtocol.reportPath), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 5)
        request.httpMethod = "POST"
        request.setValue(FlowLiveRulesProtocol.authorizationPrefix + token, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = report.encoded()
        _ = try? await FlowHTTP.send(request, session: session)
    }
}

/// The polling loop without the route type, so the task that runs it captures no generic type.
protocol FlowLiveRulesFollower: Sendable {
    /// Runs the polling loop until cancelled or the engine is gone.
    func follow(url: URL, token: String, options: FlowLiveRulesOptions, logger: Logger) async
}

extension FlowLiveRulesTarget: FlowLiveRulesFollower {
    /// Runs the polling loop for this target's engine (off the main actor).
    nonisolated func follow(url: URL, token: String, options: FlowLiveRulesOptions, logger: Logger) async {
        await FlowRulesEngine<Route>.followLiveRules(url: url, token: token, options: options, target: self, logger: logger)
    }
}
#endif
