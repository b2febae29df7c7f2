import FlowLua
import Foundation

extension FlowRulesEngine {
    /// Makes the rules' VM (and the VM of every later reload) count the lines and function
    /// calls of the rules in `counts` from its next call on; the counting charges nothing to
    /// the instruction budget.
    package func countCoverage(into counts: LuaCoverageCounts) {
        coverageCounts = counts
        ruleSet?.vm.coverage = counts
    }
}
