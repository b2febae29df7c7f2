#if DEBUG
import FlowLua
import FlowRuleBundles
import FlowScript
import FlowStackCore
import Foundation

/// Settings of a live-rules connection (`FlowRulesEngine.connect(to:token:options:onEvent:)`).
public struct FlowLiveRulesOptions: Sendable {
    /// Seconds the server may hold one poll open when nothing changes (at most
    /// `FlowLiveRulesProtocol.maximumWait`, 60; default 30).
    public var wait: Int
    /// The first wait after a network error; it doubles up to `maximumBackoff`.
    public var minimumBackoff: Duration
    /// The longest wait between two tries while the server cannot be reached.
    public var maximumBackoff: Duration
    /// The name the developer's terminal shows for this app (default: the Simulator's name or the host name).
    public var device: String
    /// When set, only bundles signed with its key are loaded (for `flowstack serve --key`).
    public var verifier: FlowRuleBundleVerifier?

    /// Creates options; every argument has the documented default.
    public init(
        wait: Int = 30, minimumBackoff: Duration = .milliseconds(250), maximumBackoff: Duration = .seconds(5),
        device: String = FlowLiveRulesOptions.defaultDevice, verifier: FlowRuleBundleVerifier? = nil
    ) {
        self.wait = min(max(wait, 0), FlowLiveRulesProtocol.maximumWait)
        self.minimumBackoff = minimumBackoff
        self.maximumBackoff = max(maximumBackoff, minimumBackoff)
        self.device = device
        self.verifier = verifier
    }

    /// `<Simulator name> Simulator` on a Simulator, else the host name.
    public static var defaultDevice: String {
        if let simulator = ProcessInfo.processInfo.environment["SIMULATOR_DEVICE_NAME"] { return "\(simulator) Simulator" }
        return ProcessInfo.processInfo.hostName
    }
}

/// What a live-rules connection did, as `connect(to:token:options:onEvent:)` reports it.
public enum FlowLiveRulesEvent: Sendable, Equatable, CustomStringConvertible {
    /// New rules arrived and loaded: this generation is in force.
    case loaded(generation: Int)
    /// New rules arrived but did not load here; the previous generation stays.
    case failed(FlowScriptError, keptGeneration: Int)
    /// The rules arrived damaged or unsigned and were not loaded.
    case refused(String)
    /// The server refused the token (401).
    case unauthorized
    /// The server could not be reached; the connection tries again after a wait.
    case unreachable(String)

    /// One line saying what happened.
    public var description: String {
        switch self {
        case .loaded(let generation): "live rules: generation \(generation) loaded"
        case .failed(let error, let kept): "live rules did not load (generation \(kept) stays): \(error.description)"
        case .refused(let detail): "live rules refused: \(detail)"
        case .unauthorized: "live rules: the server refused the token; copy the token `flowstack serve` printed"
        case .unreachable(let detail): "live rules: server unreachable (\(detail)); trying again"
        }
    }
}

/// A running live-rules connection; stopped by `cancel()`, by the engine's `disconnect()` or
/// `connect` again, or when the engine goes away (holding this handle does not keep it running).
public final class FlowLiveRulesConnection: Sendable {
    /// The server's base URL.
    public let url: URL
    private let task: Task<Void, Never>

    init(url: URL, task: Task<Void, Never>) {
        self.url = url
        self.task = task
    }

    /// Stops polling; an open request is cancelled at once.
    public func cancel() {
        task.cancel()
    }

    /// Returns when the connection has stopped (after `cancel()`).
    public func stopped() async {
        await task.value
    }
}

/// What the engine holds: stops the connection when the engine releases it.
final class FlowLiveRulesLink {
    let connection: FlowLiveRulesConnection

    init(_ connection: FlowLiveRulesConnection) {
        self.connection = connection
    }

    deinit {
        connection.cancel()
    }
}

/// The engine as the polling task sees it: weakly, on the main actor.
@MainActor
final class FlowLiveRulesTarget<Route: FlowRouteConvertible> {
    weak var engine: FlowRulesEngine<Route>?
    let onEvent: (@MainActor @Sendable (FlowLiveRulesEvent) -> Void)?

    init(engine: FlowRulesEngine<Route>, onEvent: (@MainActor @Sendable (FlowLiveRulesEvent) -> Void)?) {
        self.engine = engine
        self.onEvent = onEvent
    }
}
#endif
