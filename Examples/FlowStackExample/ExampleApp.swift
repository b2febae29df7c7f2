// The example SwiftUI app: uses the router, the views and the Scripts/ rules.
import FlowStackUI
