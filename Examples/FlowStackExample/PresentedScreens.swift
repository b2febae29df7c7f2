#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)
import FlowStack

// Presented screens: the paywall, the photo picker and its refusal, the promotion.

/// The paywall, shown as a full-screen cover.
struct PaywallScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "Premium", message: "The editor is a premium feature.") {
            Button("Subscribe") { router.dismiss() }
            Button("Not now") { router.dismiss() }
        }
        .background(Color.black)
        .preferredColorScheme(.dark)
    }
}

/// The photo picker.
struct PhotoPickerScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "Photos", message: "Pick a profile photo.") {
            ForEach(0..<6) { index in
                Label("Photo \(index + 1)", systemImage: "photo")
            }
            Button("Done") { router.pop() }
        }
    }
}

/// Shown when the photo permission was refused.
struct PermissionDeniedScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "No access to photos", message: "Allow access in the system settings.") {
            Button("OK") { router.dismiss() }
        }
    }
}

/// A promotion, only ever a sheet.
struct PromoScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "What's new", message: "Premium projects, now with an editor.") {
            Button("See plans") { router.fullScreenCover(.paywall) }
            Button("Close") { router.dismiss() }
        }
    }
}

#endif
