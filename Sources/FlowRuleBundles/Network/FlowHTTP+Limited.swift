import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FlowHTTP {
    /// Where request deadlines fire.
    static let deadlines = DispatchQueue(label: "FlowScript.FlowHTTP.deadlines")

    /// The whole exchange (connection, headers and body) took longer than its deadline.
    struct TimedOut: Error, CustomStringConvertible {
        package let description: String
    }

    /// Sends `request` on a session of its own and stops receiving as soon as the answer
    /// exceeds `maximumBytes` (by its `Content-Length`, or while it streams in), so an
    /// oversized answer is never held in memory. With `timeout`, the whole exchange must end
    /// within it: a server that sends its headers and then nothing (or trickles bytes) is
    /// abandoned at the deadline with `TimedOut`, its task stopped (`stop(_:)`). Cancellation-safe
    /// like `send`.
    static func sendLimited(
        _ request: URLRequest, configuration: URLSessionConfiguration, maximumBytes: Int, timeout: TimeInterval? = nil
    ) async throws -> Response {
        let receiver = LimitedReceiver(maximumBytes: maximumBytes, url: request.url?.absoluteString ?? "?")
        let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: nil)
        defer { FlowHTTP.end(session) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                receiver.box.start(session.dataTask(with: request), continuation: continuation)
                if let timeout { receiver.expire(after: timeout) }
            }
        } onCancel: {
            receiver.box.cancel()
        }
    }

    /// Collects one task's answer, refusing it once it is over the limit.
    private final class LimitedReceiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let maximumBytes: Int
        private let url: String
        private let lock = NSLock()
        /// The exchange's task and continuation.
        let box = TaskBox()
        private var body = Data()
        /// Over the limit: what arrives after is dropped, not kept.
        private var refused = false

        init(maximumBytes: Int, url: String) {
            self.maximumBytes = maximumBytes
            self.url = url
        }

        /// Fails the exchange and cancels its task once `seconds` have passed, unless it ended.
        func expire(after seconds: TimeInterval) {
            let nanoseconds = Int(min(max(seconds, 0), 86_400 * 365) * 1_000_000_000)
            // A serial queue of its own gets a thread even when the shared pool is busy (blocked
            // workers would otherwise hold the deadline back).
            FlowHTTP.deadlines.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [box, url] in
                box.finish(.failure(TimedOut(description: "no complete answer from \(url) within \(seconds) s")))
                box.cancel()
            }
        }

        private func tooLarge(_ bytes: Int64) -> Failure {
            Failure(description: "the answer from \(url) holds \(bytes) bytes or more, more than the limit of \(maximumBytes)")
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            if response.expectedContentLength > Int64(maximumBytes) {
                box.finish(.failure(tooLarge(response.expectedContentLength)))
                refuse()
                #if canImport(FoundationNetworking)
                // `.cancel` cancels the task (see `FlowHTTP.stop(_:)`): its body is dropped instead.
                completionHandler(.allow)
                #else
                completionHandler(.cancel)
                #endif
                return
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.lock()
            guard !refused else { return lock.unlock() }
            body.append(data)
            let size = body.count
            lock.unlock()
            if size > maximumBytes {
                box.finish(.failure(tooLarge(Int64(size))))
                refuse()
                FlowHTTP.stop(dataTask)
            }
        }

        /// Drops the body received and what arrives after it: the exchange has failed.
        private func refuse() {
            lock.lock()
            refused = true
            body = Data()
            lock.unlock()
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            lock.lock()
            let received = body
            lock.unlock()
            box.finish(FlowHTTP.answer(task.response, error: error, body: received, url: url))
        }
    }
}
