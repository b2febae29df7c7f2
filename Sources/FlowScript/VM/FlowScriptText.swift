/// The bound on text FlowScript keeps from scripts: block reasons, warnings, error messages and
/// printed lines are cut to `limit` bytes, so a rule cannot make the app hold megabytes it
/// produced (60 reasons of 4 MiB would be 240 MB a flow test keeps).
public enum FlowScriptText {
    /// Bytes of UTF-8 kept of one text (4 KiB); `print` cuts its lines in C to the same size.
    public static let limit = 4_096

    /// `text` itself when it fits in `limit` bytes; otherwise its first bytes 
    /// (never half a character) followed by a mark saying how long it was: `... [cut: 4194304 bytes, FlowStack keeps 4096]`.
    public static func bounded(_ text: String) -> String {
        let count = text.utf8.count
        guard count > limit else { return text }
        var kept = text.utf8.prefix(limit)
        // Not in the middle of a character: drop continuation bytes of a cut one.
        while let last = kept.last, last & 0xC0 == 0x80 { kept = kept.dropLast() }
        if let last = kept.last, last >= 0xC0 { kept = kept.dropLast() }
        return String(decoding: kept, as: UTF8.self) + "... [cut: \(count) bytes, FlowStack keeps \(limit)]"
    }
}
