import Foundation

/// The live-rules protocol between an app (`connect(to:token:)`) and `flowstack serve`: the one
/// place its paths, headers, body shapes and limits are written, read by both sides.
///
/// - `GET /v1/rules[?wait=S]` with `Authorization: Bearer TOKEN` and, for a long poll,
///   `If-None-Match: ETAG`: 200 with the rules as a bundle archive and an `ETag`, or 304 when
///   nothing loaded within S seconds (at most ``maximumWait``).
/// - `POST /v1/report` with a JSON ``Report`` (at most ``maximumBodyBytes``): 204.
///
/// Not DEBUG-only, unlike the client: the server in `flowstack` is built in release.
package enum FlowLiveRulesProtocol {
    /// The rules endpoint, relative to the server's base URL.
    package static let rulesPath = "v1/rules"
    /// The report endpoint, relative to the server's base URL.
    package static let reportPath = "v1/report"
    /// The query field giving a long poll's wait, in seconds.
    package static let waitField = "wait"
    /// The longest long poll the server holds, in seconds (a longer `wait` is cut to it).
    package static let maximumWait = 60
    /// The largest request body the server reads (a report), in bytes.
    package static let maximumBodyBytes = 64 << 10
    /// The content type of the rules (a bundle archive, as `flowstack bundle --output` writes).
    package static let bundleContentType = "application/vnd.flowstack.bundle+json"
    /// The response header carrying the served generation.
    package static let generationHeader = "X-FlowStack-Generation"
    /// The scheme of the `Authorization` header: `Bearer TOKEN`.
    package static let authorizationPrefix = "Bearer "

    /// What an app reports after new rules arrived: `POST /v1/report`'s JSON object.
    package struct Report: Sendable, Equatable {
        /// The name the developer's terminal shows for the app.
        package var device: String?
        /// `loaded`, `failed` or `refused`.
        package var result: String?
        /// The generation in force on the app, as sent (a number or text).
        package var generation: String?
        /// Why the rules did not load, for `failed` and `refused`.
        package var error: String?

        /// Creates a report.
        package init(device: String?, result: String?, generation: String?, error: String?) {
            self.device = device
            self.result = result
            self.generation = generation
            self.error = error
        }

        /// The JSON object the app sends (keys sorted, absent fields left out).
        package func encoded() -> Data {
            var object: [String: String] = [:]
            object["device"] = device
            object["result"] = result
            object["generation"] = generation
            object["error"] = error
            return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        }

        /// Reads a report; `nil` unless `data` is a JSON object. Fields of another type are
        /// dropped, but for a numeric `generation`, kept as its digits.
        package init?(json data: Data) {
            guard let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
            device = fields["device"] as? String
            result = fields["result"] as? String
            error = fields["error"] as? String
            if let number = fields["generation"] as? Int {
                generation = String(number)
            } else {
                generation = fields["generation"] as? String
            }
        }
    }
}
