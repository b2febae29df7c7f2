import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange over `URLSession`, cancellation-safe: cancelling the calling task cancels
/// the request at once.
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
                    box.resumeOnce(continuation, with: Self.result(data: data, response: response, error: error, request: request, maximumBytes: maximumBytes))
                }
                if !box.start(task) { box.resumeOnce(continuation, with: .failure(CancellationError())) }
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

    /// Holds the data task so a cancellation that races with its start still cancels it (both
    /// `send` and `sendLimited` keep their task in one).
    final class TaskBox: @unchecked Sendable {
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var cancelled = false
        private var resumed = false

        /// Resumes the continuation the first time only (a task cancelled before it started
        /// may still call back when its session is invalidated).
        func resumeOnce(_ continuation: CheckedContinuation<Response, any Error>, with result: Result<Response, any Error>) {
            lock.lock()
            let first = !resumed
            resumed = true
            lock.unlock()
            if first { continuation.resume(with: result) }
        }

        /// Starts the task unless cancelled already; returns whether it started. A task
        /// cancelled before it started is cancelled too, so its session can end.
        func start(_ task: URLSessionDataTask) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard !cancelled else {
                task.cancel()
                return false
            }
            self.task = task
            task.resume()
            return true
        }

        func cancel() {
            lock.lock()
            cancelled = true
            let task = self.task
            lock.unlock()
            task?.cancel()
        }
    }
}
