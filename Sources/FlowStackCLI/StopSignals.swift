@preconcurrency import Dispatch
import Foundation

/// Ctrl-C and SIGTERM: prints a last line and exits 0 (or, with `exits: false`, only tells
/// `onStop`, once: a second Ctrl-C then ends the process by the default disposition).
///
/// The signal handler only writes a byte to a pipe, and the main queue reads the pipe. The
/// handler is in place when `init` returns, so a Ctrl-C right after the "watching" line is never
/// lost: the byte waits in the pipe until the main queue reads it. (A dispatch signal source is
/// armed later, on dispatch's own thread, and a signal ignored until then is gone.)
@MainActor
final class StopSignals {
    /// Reads the pipe; nil when no pipe could be made (Ctrl-C then ends the command without the
    /// last line, by the default disposition).
    private let source: (any DispatchSourceRead)?
    private let handled: [Int32] = [SIGINT, SIGTERM]

    init(exits: Bool = true, onStop: @escaping @MainActor () -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            source = nil
            return
        }
        StopSignals.writeEnd = ends[1]
        let source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: .main)
        let handled = handled
        source.setEventHandler {
            MainActor.assumeIsolated { onStop() }
            if exits { exit(0) }
            for number in handled { signal(number, SIG_DFL) }
            source.cancel()
        }
        source.resume()
        self.source = source
        for number in handled {
            var action = sigaction()
            #if os(Linux)
            action.__sigaction_handler.sa_handler = StopSignals.handler
            #else
            action.__sigaction_u.__sa_handler = StopSignals.handler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Stops listening: Ctrl-C and SIGTERM get their default behaviour back.
    func cancel() {
        for number in handled { signal(number, SIG_DFL) }
        source?.cancel()
    }

    /// The pipe's write end, set once before the handler is installed and only read by it.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Async-signal-safe: one `write(2)`, nothing else.
    nonisolated private static let handler: @convention(c) (Int32) -> Void = { _ in
        var byte: UInt8 = 1
        _ = write(StopSignals.writeEnd, &byte, 1)
    }
}
