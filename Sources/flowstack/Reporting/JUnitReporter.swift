import FlowScript
import Foundation

/// The report as JUnit XML: a test suite per flow file, a test case per test; scripts that
/// did not load are test cases with an `<error>`.
enum JUnitReporter {
    static func render(_ report: FlowTestReport, seconds: Double) -> String {
        var files: [String] = []
        var byFile: [String: [FlowTestResult]] = [:]
        for result in report.results {
            if byFile[result.file] == nil { files.append(result.file) }
            byFile[result.file, default: []].append(result)
        }
        let loadOnly = report.loadErrors.filter { error in !files.contains(error.file ?? "") }
        var xml = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        xml.append(#"<testsuites name="flowstack" tests="\#(report.results.count + loadOnly.count)" "#
            + #"failures="\#(report.failedCount)" errors="\#(loadOnly.count)" time="\#(time(seconds))">"#)
        for file in files {
            let results = byFile[file]!
            let failures = results.count(where: { !$0.passed })
            let duration = results.reduce(0) { $0 + $1.duration }
            xml.append(#"  <testsuite name="\#(escape(file))" tests="\#(results.count)" failures="\#(failures)" "#
                + #"errors="0" time="\#(time(duration))">"#)
            for result in results {
                let line = result.line.map { #" line="\#($0)""# } ?? ""
                xml.append(#"    <testcase classname="\#(escape(className(file)))" name="\#(escape(result.name))" "#
                    + #"file="\#(escape(file))"\#(line) time="\#(time(result.duration))">"#)
                for failure in result.failures {
                    xml.append(#"      <failure type="\#(failure.kind.rawValue)" message="\#(escape(failure.message))">"#
                        + escape(failure.description) + "</failure>")
                }
                if !result.output.isEmpty {
                    xml.append("      <system-out>" + escape(result.output.joined(separator: "\n")) + "</system-out>")
                }
                xml.append("    </testcase>")
            }
            xml.append("  </testsuite>")
        }
        if !loadOnly.isEmpty {
            xml.append(#"  <testsuite name="did not load" tests="\#(loadOnly.count)" failures="0" errors="\#(loadOnly.count)" time="0">"#)
            for error in loadOnly {
                let file = error.file ?? "flowstack"
                xml.append(#"    <testcase classname="\#(escape(className(file)))" name="\#(escape(file)) did not load" time="0">"#)
                xml.append(#"      <error type="\#(error.kind.rawValue)" message="\#(escape(error.message))">"#
                    + escape(error.description) + "</error>")
                xml.append("    </testcase>")
            }
            xml.append("  </testsuite>")
        }
        xml.append("</testsuites>")
        return xml.joined(separator: "\n") + "\n"
    }

    /// `flows/auth.lua` → `flows.auth`.
    private static func className(_ file: String) -> String {
        (file.hasSuffix(".lua") ? String(file.dropLast(4)) : file).replacingOccurrences(of: "/", with: ".")
    }

    private static func time(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }

    /// Text escaped for XML attributes and content (control characters other than tab and
    /// newline are not allowed in XML 1.0 and are dropped).
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
