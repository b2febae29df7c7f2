import Foundation
import Testing
import FlowRuleBundles
import FlowScript

@Suite("Rule bundles: versions")
struct BundleVersionTests {
    @Test func versionsCompareNumericallyComponentByComponent() throws {
        let v = { (text: String) in FlowRuleBundleVersion(text)! }
        #expect(v("1.10") > v("1.9"))
        #expect(v("1.4.2") < v("1.4.10"))
        #expect(v("2") > v("1.99.99"))
        #expect(v("1.4") == v("1.4.0"))
        #expect(v("1.4").hashValue == v("1.4.0.0").hashValue)
        #expect(!(v("1.4") < v("1.4.0")))
        #expect(v("0.0.1") > v("0"))
        #expect(v("1.4.2").description == "1.4.2")
    }

    @Test func malformedVersionsAreRejected() {
        for text in ["", " ", "1..2", ".1", "1.", "v1.2", "1.2-beta", "1.-2", "1.2.3+7", "１.2", "9999999999.1"] {
            #expect(FlowRuleBundleVersion(text) == nil, "\(text) should not parse")
        }
        #expect(throws: FlowRuleBundleError.invalidVersion(field: "minimumAppVersion", text: "two")) {
            try FlowRuleBundleVersion(parsing: "two", field: "minimumAppVersion")
        }
        #expect(FlowRuleBundleError.invalidVersion(field: "version", text: "x").description.contains("1.4.2"))
    }

    @Test func versionsEncodeAsText() throws {
        let data = try JSONEncoder().encode(["v": FlowRuleBundleVersion("1.4.2")!])
        #expect(String(decoding: data, as: UTF8.self) == #"{"v":"1.4.2"}"#)
        #expect(try JSONDecoder().decode([String: FlowRuleBundleVersion].self, from: data)["v"] == FlowRuleBundleVersion("1.4.2"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([String: FlowRuleBundleVersion].self, from: Data(#"{"v":"1.x"}"#.utf8))
        }
    }

    @Test func manifestDatesAcceptTimestampsAndPlainDates() {
        #expect(FlowRuleBundleManifest.parseDate("2025-12-31T00:00:00Z") == Date(timeIntervalSince1970: 1_767_139_200))
        #expect(FlowRuleBundleManifest.parseDate("2025-12-31") == Date(timeIntervalSince1970: 1_767_139_200))
        #expect(FlowRuleBundleManifest.parseDate("2025-12-31T01:00:00+01:00") == Date(timeIntervalSince1970: 1_767_139_200))
        #expect(FlowRuleBundleManifest.parseDate("31/12/2025") == nil)
        #expect(FlowRuleBundleManifest.formatDate(Date(timeIntervalSince1970: 1_767_139_200)) == "2025-12-31T00:00:00Z")
    }
}
