#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)
import FlowStack

extension FlowNavigationStyle {
    /// The example's style: FlowStack's defaults, a padded full-width screen, a tint per kind of
    /// stack, and no swipe-down on the paywall.
    static var example: FlowNavigationStyle {
        FlowNavigationStyle.default
            .navigationBarHidden(true)
            .multilineTextAlignment(.leading)
            .screenStyle { view, context in
                view
                    .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
                    .padding(.top, context.isRootScreen ? 24 : 8)
            }
            .stackStyle { view, context in
                view.tint(context.isRootStack ? Color.blue : Color.purple)
            }
            .modalStyle { view, context in
                view.interactiveDismissDisabled(context.rootRoute(as: AppRoute.self) == .paywall)
            }
    }
}

#endif
