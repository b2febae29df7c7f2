/// The bound on text FlowScript keeps from scripts: block reasons, warnings, error messages and
/// printed lines are cut to `limit` bytes, so a rule cannot make the app hold megabytes it
/// produced (60 reasons of 4 MiB would be 240 MB a flow test keeps).
package enum FlowScriptText {
    /// Bytes of UTF-8 kept of one text (4 KiB); `print` cuts its lines in C to the same size.
    package static let limit = 4_096

    /// `text` itself when it fits in `limit` bytes; otherwise its first bytes 
    /// (never half a character) followed by a mark saying how long it was: `... [cut: 4194304 bytes, FlowStack keeps 4096]`.
    package static func bounded(_ text: String) -> String {
        let count = text.utf8.count
        guard count > limit else { return text }
        var kept = Array(text.utf8.prefix(limit))
        // Not in the middle of a character: a last character missing bytes is dropped.
        var continuation = 0
        while continuation < 3, continuation < kept.count, kept[kept.count - 1 - continuation] & 0xC0 == 0x80 {
            continuation += 1
        }
        if continuation < kept.count {
            let lead = kept[kept.count - 1 - continuation]
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            if continuation + 1 < length { kept.removeLast(continuation + 1) }
        }
        return String(decoding: kept, as: UTF8.self) + "... [cut: \(count) bytes, FlowStack keeps \(limit)]"
    }
}
