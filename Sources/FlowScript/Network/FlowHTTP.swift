import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange over `URLSession`, cancellation-safe: cancelling the calling task cancels
/// the request at once.
enum FlowHTTP {
    /// A response: status, headers (names lowercased) and body.
    struct Response: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// A header by its lowercase name.
        func header(_ name: String) -> String? { headers[name] }
    }

    /// Why an exchange failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `request` and returns the whole response; throws `CancellationError` when the
    /// calling task is cancelled, `Failure` when the response is larger than `maximumBytes`.
    static func send(_ request: URLRequest, session: URLSession, maximumBytes: Int = .max) async throws -> Response {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        let cancelled = (error as? URLError)?.code == .cancelled
                        continuation.resume(throwing: cancelled ? CancellationError() : error)
                        return
                    }
                    guard let http = response as? HTTPURLResponse else {
                        continuation.resume(throwing: Failure(description: "the answer from \(request.url?.absoluteString ?? "?") is not HTTP"))
                        return
                    }
                    let body = data ?? Data()
                    guard body.count <= maximumBytes else {
                        continuation.resume(throwing: Failure(description: "the answer holds \(body.count) bytes, more than the limit of \(maximumBytes)"))
                        return
                    }
                    var headers: [String: String] = [:]
                    for (key, value) in http.allHeaderFields {
                        if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
                    }
                    continuation.resume(returning: Response(status: http.statusCode, headers: headers, body: body))
                }
                if !box.start(task) { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// Holds the data task so a cancellation that races with its start still cancels it.
    private final class TaskBox: @unchecked Sendable {
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var cancelled = false

        /// Starts the task unless cancelled already; returns whether it started.
        func start(_ task: URLSessionDataTask) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard !cancelled else { return false }
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
