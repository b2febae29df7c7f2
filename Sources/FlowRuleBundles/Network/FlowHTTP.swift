import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange over `URLSession`, cancellation-safe: cancelling the calling task ends the
/// exchange at once and stops its request (see `stop(_:)` for Linux).
package enum FlowHTTP {
    /// A response: status, headers (names lowercased) and body.
    package struct Response: Sendable {
        package let status: Int
        let headers: [String: String]
        package let body: Data

        /// A header by its lowercase name.
        package func header(_ name: String) -> String? { headers[name] }
    }

    /// Why an exchange failed.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Sends `request` and returns the whole response; throws `CancellationError` when the
    /// calling task is cancelled, `Failure` when the response is larger than `maximumBytes`.
    package static func send(_ request: URLRequest, session: URLSession, maximumBytes: Int = .max) async throws -> Response {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    box.finish(Self.result(data: data, response: response, error: error, request: request, maximumBytes: maximumBytes))
                }
                box.start(task, continuation: continuation)
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// Ends `session` once its tasks have finished; callers cancel or await their own tasks
    /// first, so it ends at once.
    ///
    /// Not `invalidateAndCancel()`: swift-corelibs-foundation reads the session's task list
    /// off the session's queue there while a task that just finished removes itself on it, and
    /// the process crashes when the two meet. `finishTasksAndInvalidate()` does all its work
    /// on that queue.
    package static func end(_ session: URLSession) {
        session.finishTasksAndInvalidate()
    }

    /// What a finished data task means.
    private static func result(data: Data?, response: URLResponse?, error: (any Error)?, request: URLRequest, maximumBytes: Int) -> Result<Response, any Error> {
        let result = answer(response, error: error, body: data ?? Data(), url: request.url?.absoluteString ?? "?")
        if case .success(let answered) = result, answered.body.count > maximumBytes {
            return .failure(Failure(description: "the answer holds \(answered.body.count) bytes, more than the limit of \(maximumBytes)"))
        }
        return result
    }

    /// The answer a finished task got: its error (a cancellation as `CancellationError`), or
    /// its status and headers (names lowercased) with `body`.
    static func answer(_ response: URLResponse?, error: (any Error)?, body: Data, url: String) -> Result<Response, any Error> {
        if let error {
            return .failure((error as? URLError)?.code == .cancelled ? CancellationError() : error)
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(Failure(description: "the answer from \(url) is not HTTP"))
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return .success(Response(status: http.statusCode, headers: headers, body: body))
    }

    /// One exchange's data task and continuation (`send` and `sendLimited` keep theirs in
    /// one): the continuation is resumed once, by the first of the task's end, a cancellation
    /// or a failure the caller decides (too large, too late).
    final class TaskBox: @unchecked Sendable {
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var continuation: CheckedContinuation<Response, any Error>?
        private var cancelled = false

        /// Starts `task` for `continuation`; when the exchange was cancelled already, cancels
        /// the task instead (so its session can end) and throws `CancellationError`.
        func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<Response, any Error>) {
            lock.lock()
            guard !cancelled else {
                lock.unlock()
                task.cancel()
                continuation.resume(throwing: CancellationError())
                return
            }
            self.task = task
            self.continuation = continuation
            lock.unlock()
            task.resume()
        }

        /// Ends the exchange with `result`, unless it has ended already.
        func finish(_ result: Result<Response, any Error>) {
            lock.lock()
            let continuation = self.continuation
            self.continuation = nil
            lock.unlock()
            continuation?.resume(with: result)
        }

        /// Cancels the task and ends the exchange with `CancellationError` at once, without
        /// waiting for the task to report its end.
        func cancel() {
            lock.lock()
            cancelled = true
            let task = self.task
            lock.unlock()
            if let task { FlowHTTP.stop(task) }
            finish(.failure(CancellationError()))
        }
    }

    /// Stops a running task, where that is safe.
    ///
    /// swift-corelibs-foundation (Linux) crashes the process when a task is cancelled as it
    /// finishes ("Trying to access a behaviour for a task that in not in the registry"): the
    /// cancellation is delivered on the task's queue, its end on the session's, and the task may
    /// leave the session first. A CI run crashed so, and a test that cancels exchanges as their
    /// answers arrive crashed about one full test run in two, also with the cancellation and
    /// the task's end serialized by a lock. There the task is left to end on its own: its
    /// exchange has ended for the caller already, its answer is dropped, and the server's answer
    /// or its request's timeout ends it (a session ends once it has). Apple's Foundation
    /// cancels it.
    static func stop(_ task: URLSessionTask) {
        #if !canImport(FoundationNetworking)
        task.cancel()
        #endif
    }
}
