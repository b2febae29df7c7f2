import FlowLua
import FlowScript
import FlowTesting
import Foundation

/// The report as JUnit XML: a test suite per flow file, a test case per test. A test whose
/// expectation failed has a `<failure>`; one that raised an error has an `<error>` (counted in
/// `errors`); a pending test is `<skipped/>`. A flow file that did not load is a suite with
/// `errors="1"`, no test case, and the error in `<system-err>`; so are the rules when they did
/// not load (suite "rules"). What the rules printed while they loaded is the `<system-out>` of a
/// suite "rules" with no test case. The counts of every suite and of `<testsuites>` add up.
enum JUnitReporter {
    /// The counts of one suite.
    private struct Counts {
        var tests = 0, failures = 0, errors = 0, skipped = 0

        mutating func add(_ other: Counts) {
            tests += other.tests
            failures += other.failures
            errors += other.errors
            skipped += other.skipped
        }

        var attributes: String { #"tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" skipped="\#(skipped)""# }
    }

    static func render(_ report: FlowTestReport, seconds: Double) -> String {
        var files: [String] = []
        var byFile: [String: [FlowTestResult]] = [:]
        for result in report.results {
            if byFile[result.file] == nil { files.append(result.file) }
            byFile[result.file, default: []].append(result)
        }
        var total = Counts()
        var body: [String] = []
        if !report.rulesOutput.isEmpty {
            body.append(#"  <testsuite name="rules" \#(Counts().attributes) time="0">"#)
            body.append("    <system-out>" + escape(report.rulesOutput.joined(separator: "\n")) + "</system-out>")
            body.append("  </testsuite>")
        }
        for error in report.loadErrors where !files.contains(error.file ?? "") {
            body += loadErrorSuite(name: (error.file ?? "flowstack").hasPrefix("rules/") ? "rules" : error.file ?? "flowstack", error: error)
            total.errors += 1
        }
        for file in files {
            let results = byFile[file]!
            if let loadFailure = results.first(where: \.isLoadFailure), let error = loadFailure.failures.first {
                body += loadErrorSuite(name: file, error: FlowScriptError(
                    kind: .runtime, file: error.file, line: error.line, message: error.message))
                total.errors += 1
                continue
            }
            var counts = Counts()
            var cases: [String] = []
            for result in results {
                counts.tests += 1
                let line = result.line.map { #" line="\#($0)""# } ?? ""
                cases.append(#"    <testcase classname="\#(escape(className(file)))" name="\#(escape(result.name))" "#
                    + #"file="\#(escape(file))"\#(line) time="\#(time(result.duration))">"#)
                if result.isPending {
                    counts.skipped += 1
                    cases.append(#"      <skipped message="pending"/>"#)
                } else if result.failed {
                    if result.failures.contains(where: { $0.kind == .error }) { counts.errors += 1 } else { counts.failures += 1 }
                }
                for failure in result.failures {
                    let element = failure.kind == .error ? "error" : "failure"
                    let message = (failure.location.isEmpty ? "" : failure.location + ": ") + failure.message
                    cases.append(#"      <\#(element) type="\#(failure.kind.rawValue)" message="\#(escape(message))">"#
                        + escape(failure.description) + "</\(element)>")
                }
                if !result.output.isEmpty {
                    cases.append("      <system-out>" + escape(result.output.joined(separator: "\n")) + "</system-out>")
                }
                let unfailed = result.scriptErrors.filter { !result.failures.contains($0) }
                if !unfailed.isEmpty {
                    let lines = unfailed.map(PrettyReporter.scriptErrorLine)
                    cases.append("      <system-err>" + escape(lines.joined(separator: "\n")) + "</system-err>")
                }
                cases.append("    </testcase>")
            }
            let duration = results.reduce(0) { $0 + $1.duration }
            body.append(#"  <testsuite name="\#(escape(file))" \#(counts.attributes) time="\#(time(duration))">"#)
            body += cases
            body.append("  </testsuite>")
            total.add(counts)
        }
        var xml = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        xml.append(#"<testsuites name="flowstack" \#(total.attributes) time="\#(time(seconds))">"#)
        xml += body
        xml.append("</testsuites>")
        return xml.joined(separator: "\n") + "\n"
    }

    /// A suite for a script that did not load: no test case, one error, the error's text in
    /// `<system-err>`.
    private static func loadErrorSuite(name: String, error: FlowScriptError) -> [String] {
        [
            #"  <testsuite name="\#(escape(name))" tests="0" failures="0" errors="1" skipped="0" time="0">"#,
            #"    <properties><property name="did-not-load" value="\#(escape(error.description))"/></properties>"#,
            "    <system-err>" + escape("did not load: \(error.description)\nNothing of \(error.file ?? name) ran; fix it and run again.")
                + "</system-err>",
            "  </testsuite>",
        ]
    }

    /// `flows/auth.lua` → `flows.auth`.
    private static func className(_ file: String) -> String {
        (file.hasSuffix(".lua") ? String(file.dropLast(4)) : file).replacingOccurrences(of: "/", with: ".")
    }

    private static func time(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }

    private static func escape(_ text: String) -> String { FlowXMLText.escaped(text) }
}
