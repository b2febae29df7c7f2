import FlowScript
import FlowStackCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads signed rule bundles, installs them in a `FlowRuleBundleStore`, and applies them.
///
/// ```swift
/// let updater = FlowRuleBundleUpdater(store: store, engine: engine)
/// updater.onUpdate = { outcome in print(outcome) }
/// await updater.fetch(from: URL(string: "https://rules.example.com/app/rules.flowbundle")!)
/// ```
///
/// Each fetch sends `If-None-Match` with the last `ETag` (a `304` costs nothing), stops
/// receiving an answer as soon as it exceeds `Options.maximumBytes`, abandons a request whose whole
/// transfer (connection, headers and body) has not ended after `Options.timeout`, and retries
/// network errors, timeouts and `5xx` answers with doubling waits. A new
/// bundle is verified and installed (see the store); `ApplyPolicy` says whether the engine
/// loads it at once (between two navigations: the engine swaps rules on the main actor) or at
/// the next launch. The outcome goes to `onUpdate` and is returned; the engine's generation
/// tells which rules every navigation ran with.
@MainActor
public final class FlowRuleBundleUpdater<Route: FlowRouteConvertible> {
    /// When a newly installed bundle is loaded.
    public enum ApplyPolicy: Sendable {
        /// At once, on the main actor, so between two navigations.
        case betweenNavigations
        /// At the next launch (`engine.loadInstalledBundle(from:)`).
        case nextLaunch
    }

    /// Limits and policy of the updater.
    public struct Options: Sendable {
        /// The largest bundle accepted (default `FlowRuleBundleLimits.maximumArchiveBytes`,
        /// 16 MiB, the largest archive `flowstack bundle` writes).
        public var maximumBytes: Int
        /// Seconds one request may take, from connecting to the answer's last byte, before it is
        /// abandoned (default 30); a server that stalls after its headers is abandoned too.
        public var timeout: TimeInterval
        /// Tries per fetch, the first included (default 3).
        public var attempts: Int
        /// The wait before the first retry; it doubles after each (default 1 s).
        public var backoff: Duration
        /// When a new bundle is loaded.
        public var policy: ApplyPolicy
        /// Extra request headers (an API key, say).
        public var headers: [String: String]

        /// Creates options; every argument has the documented default.
        public init(
            maximumBytes: Int = FlowRuleBundleLimits.maximumArchiveBytes, timeout: TimeInterval = 30, attempts: Int = 3, backoff: Duration = .seconds(1),
            policy: ApplyPolicy = .betweenNavigations, headers: [String: String] = [:]
        ) {
            self.maximumBytes = maximumBytes
            self.timeout = timeout
            self.attempts = max(1, attempts)
            self.backoff = backoff
            self.policy = policy
            self.headers = headers
        }
    }

    /// What one fetch did.
    public enum Outcome: Sendable, CustomStringConvertible {
        /// The server has nothing new (`304`).
        case notModified
        /// A new bundle was installed; `generation` is the engine's generation when it was
        /// loaded at once, `nil` when it waits for the next launch.
        case installed(FlowRuleBundleVersion, generation: Int?)
        /// The bundle downloaded is the one installed already.
        case alreadyInstalled(FlowRuleBundleVersion)
        /// The bundle was refused or could not be stored; the rules in force stay.
        case refused(FlowRuleBundleStoreError)
        /// The bundle installed but its rules did not load; the rules in force stay.
        case loadFailed(FlowBundleLoadError)
        /// The download failed after every attempt.
        case failed(String)

        /// One line saying what happened.
        public var description: String {
            switch self {
            case .notModified: "rule bundle: nothing new"
            case .installed(let version, let generation?): "rule bundle \(version) installed and loaded (generation \(generation))"
            case .installed(let version, nil): "rule bundle \(version) installed; it loads at the next launch"
            case .alreadyInstalled(let version): "rule bundle \(version) is installed already"
            case .refused(let error): error.description
            case .loadFailed(let error): error.description
            case .failed(let detail): "rule bundle download failed: \(detail); the rules in force stay"
            }
        }
    }

    /// The store bundles are installed in.
    package let store: FlowRuleBundleStore
    /// The engine new bundles are loaded into (held weakly).
    package private(set) weak var engine: FlowRulesEngine<Route>?
    /// Limits and policy.
    public var options: Options
    /// Called with the outcome of every fetch.
    public var onUpdate: (@MainActor (Outcome) -> Void)?
    /// The `ETag` of the last bundle downloaded, sent as `If-None-Match`.
    package private(set) var etag: String?
    private let sessionConfiguration: URLSessionConfiguration

    /// Creates an updater installing into `store` and loading into `engine`; each fetch uses a
    /// session made from `sessionConfiguration` (default: ephemeral).
    public init(
        store: FlowRuleBundleStore, engine: FlowRulesEngine<Route>?, options: Options = Options(),
        sessionConfiguration: URLSessionConfiguration = .ephemeral
    ) {
        self.store = store
        self.engine = engine
        self.options = options
        self.sessionConfiguration = sessionConfiguration
    }

    /// Fetches `url` once (with retries), installs a new bundle, applies it by policy, and
    /// reports the outcome.
    @discardableResult
    public func fetch(from url: URL) async -> Outcome {
        let outcome = await fetchOutcome(from: url)
        onUpdate?(outcome)
        return outcome
    }

    private func fetchOutcome(from url: URL) async -> Outcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: options.timeout)
        for (name, value) in options.headers { request.setValue(value, forHTTPHeaderField: name) }
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let response: FlowHTTP.Response
        switch await Self.download(request, configuration: sessionConfiguration, options: options) {
        case .success(let answer): response = answer
        case .failure(let failure): return .failed(failure.description)
        }
        if response.status == 304 { return .notModified }
        guard response.status == 200 else {
            return .failed("the server answered \(response.status) for \(url.absoluteString)")
        }
        let store = self.store
        let installed = await Task.detached { () -> Result<FlowRuleBundleStore.InstallResult, FlowRuleBundleStoreError> in
            do throws(FlowRuleBundleStoreError) { return .success(try store.install(data: response.body)) } catch { return .failure(error) }
        }.value
        switch installed {
        case .failure(let error):
            return .refused(error)
        case .success(.alreadyInstalled(let version)):
            etag = response.header("etag")
            return .alreadyInstalled(version)
        case .success(.installed(let version)):
            etag = response.header("etag")
            guard options.policy == .betweenNavigations, let engine else { return .installed(version, generation: nil) }
            guard let bundle = store.launchBundle().bundle else { return .installed(version, generation: nil) }
            do {
                try engine.load(verified: bundle, sourcePrefix: "")
            } catch {
                return .loadFailed(error)
            }
            return .installed(version, generation: engine.generation)
        }
    }

    /// Sends the request, retrying network errors and `5xx` answers with doubling waits.
    nonisolated private static func download(
        _ request: URLRequest, configuration: URLSessionConfiguration, options: Options
    ) async -> Result<FlowHTTP.Response, FlowHTTP.Failure> {
        var wait = options.backoff
        var last = "no attempt was made"
        for attempt in 1...options.attempts {
            do {
                let response = try await FlowHTTP.sendLimited(
                    request, configuration: configuration, maximumBytes: options.maximumBytes, timeout: options.timeout)
                if response.status < 500 { return .success(response) }
                last = "the server answered \(response.status)"
            } catch is CancellationError {
                return .failure(FlowHTTP.Failure(description: "the fetch was cancelled"))
            } catch let failure as FlowHTTP.Failure {
                return .failure(failure)
            } catch let timedOut as FlowHTTP.TimedOut {
                last = timedOut.description
            } catch {
                last = error.localizedDescription
            }
            guard attempt < options.attempts else { break }
            do { try await Task.sleep(for: wait) } catch { return .failure(FlowHTTP.Failure(description: "the fetch was cancelled")) }
            wait *= 2
        }
        return .failure(FlowHTTP.Failure(description: "\(last) (after \(options.attempts) attempts)"))
    }
}
