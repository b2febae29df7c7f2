@preconcurrency import Dispatch
import Foundation

/// Ctrl-C and SIGTERM: prints a last line and exits 0.
@MainActor
final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(onStop: @escaping @MainActor () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated { onStop() }
                exit(0)
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
