import FlowScript
import Foundation

/// The report in TAP 14: a test line per test, a YAML block per failure, the plan last.
enum TAPReporter {
    static func render(_ report: FlowTestReport) -> String {
        var lines = ["TAP version 14"]
        var number = 0
        for error in report.loadErrors {
            lines.append("# did not load: \(error.description)")
        }
        for result in report.results {
            number += 1
            let name = escape("\(result.file) › \(result.name)")
            guard !result.passed else {
                lines.append("ok \(number) - \(name)")
                continue
            }
            lines.append("not ok \(number) - \(name)")
            lines.append("  ---")
            for (index, failure) in result.failures.enumerated() {
                let prefix = result.failures.count > 1 ? "failure \(index + 1) " : ""
                lines.append("  \(prefix)message: \(yaml(failure.message))")
                if !failure.location.isEmpty { lines.append("  \(prefix)at: \(yaml(failure.location))") }
                if let expected = failure.expected { lines.append("  \(prefix)expected: \(yaml(expected))") }
                if let actual = failure.actual { lines.append("  \(prefix)actual: \(yaml(actual))") }
                if !failure.stacks.isEmpty {
                    lines.append("  \(prefix)stacks:")
                    lines += failure.stacks.map { "    - \(yaml($0))" }
                }
            }
            if !result.output.isEmpty {
                lines.append("  output:")
                lines += result.output.map { "    - \(yaml($0))" }
            }
            lines.append("  ...")
        }
        lines.append("1..\(number)")
        lines.append("# \(report.summary)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A test description without `#` (which starts a TAP directive).
    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#")
    }

    /// A YAML double-quoted scalar.
    static func yaml(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 { out += String(format: "\\x%02X", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
