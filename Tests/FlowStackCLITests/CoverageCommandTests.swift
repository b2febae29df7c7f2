import Foundation
import Testing

@Suite("flowstack test --coverage")
struct CoverageCommandTests {
    @Test("writes lcov that genhtml accepts and ends the pretty report with a per-file summary")
    func lcovAndSummary() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lcov = directory.appendingPathComponent("rules.lcov")
        let output = try CLIRunner.run(["test", "Scripts", "--coverage", lcov.path])
        #expect(output.status == 0)
        #expect(output.lines.last?.hasSuffix("passed, 0 failed") == true, "the summary stays last")
        #expect(output.stdout.contains("Rules coverage"))
        #expect(output.lines.contains { $0.wholeMatch(of: /\ \ rules\/20-paywall\.lua +\d+% lines \(\d+\/\d+\), \d+\/\d+ functions/) != nil },
                "\(output.stdout)")
        let text = try String(contentsOf: lcov, encoding: .utf8)
        #expect(text.components(separatedBy: "end_of_record").count - 1 == 9, "one record per rules file")
        for prefix in ["TN:", "SF:", "FN:", "FNDA:", "FNF:", "FNH:", "DA:", "LF:", "LH:"] {
            #expect(text.contains("\n" + prefix) || text.hasPrefix(prefix), "missing \(prefix)")
        }
        let genhtml = URL(fileURLWithPath: "/usr/bin/genhtml")
        guard FileManager.default.isExecutableFile(atPath: genhtml.path) else { return }
        let process = Process()
        process.executableURL = genhtml
        process.arguments = [lcov.path, "-o", directory.appendingPathComponent("html").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let log = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(log)")
        #expect(log.contains("Overall coverage rate"), "\(log)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("html/index.html").path))
    }
}
