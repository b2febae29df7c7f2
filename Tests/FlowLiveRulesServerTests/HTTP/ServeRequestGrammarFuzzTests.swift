import FlowLiveRulesServer
import FlowStackTestSupport
import Foundation
import Testing

/// The hand-written HTTP/1.1 request reader fed generated requests in process: valid ones,
/// mutated ones (bytes flipped, inserted, deleted), truncated ones and oversized ones (head,
/// header lines, Content-Length, chunked body, chunk-size line), each cut into random pieces as
/// a socket would deliver them. No input crashes it; a valid request reads back as sent; a
/// truncated one waits for more (the connection closes); an oversized one is refused with the
/// limit's status; every refusal is a 4xx but a transfer coding other than chunked (501, as
/// RFC 9112 asks).
///
/// The limits are small (2 KiB head, 16 header lines, 4 KiB body) so that oversized requests
/// are cheap to make; the grammar is the same at any limit.
@Suite("serve: the request grammar, fuzzed")
struct ServeRequestGrammarFuzzTests {
    static let limits: ServeHTTPLimits = {
        var limits = ServeHTTPLimits()
        limits.maximumHeadBytes = 2 << 10
        limits.maximumHeaderCount = 16
        limits.maximumBodyBytes = 4 << 10
        return limits
    }()

    @Test("1,000 generated requests: no crash, valid ones read back, every refusal a 4xx")
    func fastTier() async {
        await Self.fuzz(count: 1_000, seed: 0x5EED)
    }

    /// Eight streams of 125,000 from their own seeds, run side by side (minutes of processor
    /// time in a debug build).
    @Test("a million generated requests: no crash, valid ones read back, every refusal a 4xx", .enabled(if: TestTier.slow))
    func slowTier() async {
        await withTaskGroup(of: Void.self) { group in
            for stream in 0..<8 as Range<UInt64> {
                group.addTask { await Self.fuzz(count: 125_000, seed: 0xF1057AC &+ stream) }
            }
        }
    }

    /// Generates and reads `count` requests from `seed`; records each failure (the first 20)
    /// with the request's bytes, and checks that every kind and every limit came up.
    static func fuzz(count: Int, seed: UInt64) async {
        var random = SeededRandom(seed: seed)
        var statuses: [Int: Int] = [:]
        var kinds: [RequestKind: Int] = [:]
        var failures = 0
        for _ in 0..<count {
            let request = GeneratedRequest.make(&random, limits: limits)
            let outcome = await read(request.bytes, pieces: &random)
            kinds[request.kind, default: 0] += 1
            if case .refused(let refusal) = outcome { statuses[refusal.status, default: 0] += 1 }
            if let problem = problem(request, outcome) {
                failures += 1
                if failures <= 20 {
                    Issue.record("\(request.kind): \(problem), for \(String(decoding: request.bytes.prefix(300), as: UTF8.self).debugDescription)")
                }
            }
        }
        #expect(failures == 0)
        #expect(Set(kinds.keys) == Set(RequestKind.allCases))
        for status in [400, 413, 414, 431] { #expect(statuses[status, default: 0] > 0, "no request was refused with \(status)") }
    }

    /// How reading one request ended.
    enum Outcome {
        case request(ServeRequestHead, Data)
        case refused(ServeHTTPRefusal)
        case closed
        case failed(any Error)
    }

    /// Reads one request from `bytes`, delivered in random pieces.
    static func read(_ bytes: [UInt8], pieces random: inout SeededRandom) async -> Outcome {
        var chunks: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let size = random.below(4) == 0 ? bytes.count - start : 1 + random.below(700)
            let end = min(bytes.count, start + size)
            chunks.append(Array(bytes[start..<end]))
            start = end
        }
        let feed = Feed(chunks)
        let reader = ServeRequestReader(limits: limits) { feed.next() }
        do {
            let (head, framing) = try await reader.head()
            return .request(head, try await reader.body(framing))
        } catch let refusal as ServeHTTPRefusal {
            return .refused(refusal)
        } catch is ServeConnectionClosed {
            return .closed
        } catch {
            return .failed(error)
        }
    }

    /// What is wrong with `outcome` for `request`: every refusal is a 4xx with a message (or
    /// 501 for a transfer coding), and each kind ends as it promises; `nil` when nothing is.
    static func problem(_ request: GeneratedRequest, _ outcome: Outcome) -> String? {
        if case .refused(let refusal) = outcome {
            let allowed = (400..<500).contains(refusal.status) || (refusal.status == 501 && refusal.message.contains("transfer coding"))
            if !allowed || refusal.message.isEmpty { return "refused with \(refusal.status) (\(refusal.message))" }
        }
        switch (request.kind, outcome) {
        case (_, .failed(let error)):
            return "unexpected error \(error)"
        case (.valid, .request(let head, let body)):
            return head.method == request.method && head.path == request.path && body == request.body ? nil : "misread as \(head.method) \(head.path)"
        case (.truncated, .closed), (.mutated, _):
            return nil
        case (.oversized, .refused(let refusal)):
            return [400, 413, 414, 431].contains(refusal.status) ? nil : "refused with \(refusal.status), not a limit's status"
        default:
            return "ended as \(outcome)"
        }
    }
}

/// The pieces a connection delivers, one per read; `nil` after the last.
private final class Feed: @unchecked Sendable {
    private var chunks: [[UInt8]]
    private var index = 0
    private let lock = NSLock()

    init(_ chunks: [[UInt8]]) { self.chunks = chunks }

    func next() -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        guard index < chunks.count else { return nil }
        index += 1
        return chunks[index - 1]
    }
}

/// Which part of the grammar a generated request exercises.
enum RequestKind: CaseIterable, Hashable {
    case valid, mutated, truncated, oversized
}

/// A generated request: its bytes and, for a valid one, what it says.
struct GeneratedRequest {
    var kind: RequestKind
    var bytes: [UInt8]
    var method = ""
    var path = ""
    var body = Data()

    static let tokens = ["GET", "POST", "PUT", "HEAD", "X-Custom", "DELETE"]
    static let paths = ["/v1/rules", "/v1/report", "/", "/a/b%20c", "/v1/rules?wait=30", "/x?y=1&z=%41"]
    static let headerNames = ["Host", "Authorization", "If-None-Match", "Accept", "X-Trace", "Connection", "Expect", "User-Agent"]

    static func make(_ random: inout SeededRandom, limits: ServeHTTPLimits) -> GeneratedRequest {
        switch random.below(10) {
        case 0...3: return valid(&random)
        case 4...6: return mutated(&random)
        case 7, 8: return truncated(&random)
        default: return oversized(&random, limits: limits)
        }
    }

    /// A request the grammar accepts: a body sized, chunked or none, within the limits.
    static func valid(_ random: inout SeededRandom) -> GeneratedRequest {
        let method = tokens[random.below(tokens.count)]
        let target = paths[random.below(paths.count)]
        var head = String(repeating: "\r\n", count: random.below(8) == 0 ? 1 : 0)
        head += "\(method) \(target) HTTP/1.\(random.below(4) == 0 ? 0 : 1)\r\n"
        let http10 = head.contains("HTTP/1.0")
        for _ in 0..<random.below(8) {
            let name = headerNames[random.below(headerNames.count)]
            head += "\(name):\(random.below(2) == 0 ? " " : "")\(randomText(&random, length: random.below(40)))\r\n"
        }
        let body = Data((0..<random.below(600)).map { _ in UInt8(random.below(256)) })
        var bytes: [UInt8]
        if body.isEmpty || (http10 && random.below(2) == 0) {
            bytes = Array((head + "\r\n").utf8)
            return GeneratedRequest(kind: .valid, bytes: bytes, method: method, path: pathOnly(target))
        }
        if http10 || random.below(2) == 0 {
            bytes = Array((head + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
        } else {
            bytes = Array((head + "Transfer-Encoding: chunked\r\n\r\n").utf8)
            var rest = body[...]
            while !rest.isEmpty {
                let size = min(rest.count, 1 + random.below(200))
                bytes += Array("\(String(size, radix: 16, uppercase: random.below(2) == 0))\(random.below(5) == 0 ? ";ext=1" : "")\r\n".utf8)
                bytes += rest.prefix(size) + Array("\r\n".utf8)
                rest = rest.dropFirst(size)
            }
            bytes += Array("0\r\n\(random.below(4) == 0 ? "X-Trailer: 1\r\n" : "")\r\n".utf8)
        }
        return GeneratedRequest(kind: .valid, bytes: bytes, method: method, path: pathOnly(target), body: body)
    }

    /// A valid request with one to four bytes flipped, inserted (often a delimiter) or deleted.
    static func mutated(_ random: inout SeededRandom) -> GeneratedRequest {
        var bytes = valid(&random).bytes
        let delimiters: [UInt8] = Array("\r\n: ;\t0fF\u{0}\u{7F}".utf8) + [0x80, 0xFF]
        for _ in 0..<(1 + random.below(4)) where !bytes.isEmpty {
            let index = random.below(bytes.count)
            switch random.below(3) {
            case 0: bytes[index] ^= UInt8(1 << random.below(8))
            case 1: bytes.insert(random.below(2) == 0 ? delimiters[random.below(delimiters.count)] : UInt8(random.below(256)), at: index)
            default: bytes.remove(at: index)
            }
        }
        return GeneratedRequest(kind: .mutated, bytes: bytes)
    }

    /// A valid request cut before its end.
    static func truncated(_ random: inout SeededRandom) -> GeneratedRequest {
        let bytes = valid(&random).bytes
        return GeneratedRequest(kind: .truncated, bytes: Array(bytes.prefix(random.below(bytes.count))))
    }

    /// A request over one limit: a long request line, long headers, too many header lines,
    /// a Content-Length or chunked body over the limit, a chunk-size line too long, or too
    /// many trailer lines.
    static func oversized(_ random: inout SeededRandom, limits: ServeHTTPLimits) -> GeneratedRequest {
        let over = limits.maximumBodyBytes + 1 + random.below(10_000)
        let text: String
        switch random.below(7) {
        case 0: text = "GET /\(String(repeating: "a", count: limits.maximumHeadBytes)) HTTP/1.1\r\n\r\n"
        case 1: text = "GET / HTTP/1.1\r\nX-Big: \(String(repeating: "b", count: limits.maximumHeadBytes))\r\n\r\n"
        case 2: text = "GET / HTTP/1.1\r\n" + String(repeating: "X-Many: 1\r\n", count: limits.maximumHeaderCount + 1 + random.below(5)) + "\r\n"
        case 3: text = "POST /v1/report HTTP/1.1\r\nContent-Length: \(over)\r\n\r\n"
        case 4:
            text = "POST /v1/report HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                + String(repeating: "400\r\n" + String(repeating: "c", count: 0x400) + "\r\n", count: over / 0x400 + 1) + "0\r\n\r\n"
        case 5: text = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 2_000) + "\r\nx\r\n0\r\n\r\n"
        default:
            text = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n"
                + String(repeating: "T: 1\r\n", count: limits.maximumHeaderCount + 1) + "\r\n"
        }
        return GeneratedRequest(kind: .oversized, bytes: Array(text.utf8))
    }

    /// Printable header text (tabs and non-ASCII included).
    static func randomText(_ random: inout SeededRandom, length: Int) -> String {
        let alphabet = Array("abcXYZ0189 -_/=;,\"\té€".unicodeScalars)
        var text = String.UnicodeScalarView()
        for _ in 0..<length { text.append(alphabet[random.below(alphabet.count)]) }
        return String(text).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    }

    static func pathOnly(_ target: String) -> String {
        String(target.prefix { $0 != "?" })
    }
}

