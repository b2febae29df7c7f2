#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)
import FlowStack

// Launch and account screens (Scripts/rules/10-auth.lua gates what comes after them).

/// The launch screen.
struct SplashScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "FlowStack", message: "Navigation rules in Lua, screens in SwiftUI.") {
            Button("Start") {
                // With the rules loaded, a signed-out first launch is redirected to onboarding.
                router.setRoot(.home)
            }
            Button("I have an account") { router.setRoot(.login) }
        }
    }
}

/// First-launch introduction.
struct OnboardingScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "Welcome", message: "Projects, an editor, and a few rules.") {
            Button("Continue") { router.setRoot(.login) }
        }
    }
}

/// Sign-in.
struct LoginScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "Sign in", message: "Any account works in the example.") {
            Button("Sign in") { router.setRoot(.home) }
            Button("Back to the start") { router.setRoot(.splash) }
        }
    }
}

/// The person's profile.
struct ProfileScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "Profile", message: "Signed in.") {
            Button("Back to home") { router.popToRoot() }
            Button("Sign out", role: .destructive) { router.setRoot(.login) }
        }
    }
}

/// The settings.
struct SettingsScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "Settings", message: "Profile, photo and session.") {
            Button("Profile") { router.push(.profile) }
            Button("Choose a profile photo") {
                // The photo rule asks an async host function, so it is opened asynchronously.
                Task { await router.pushAsync(.photoPicker) }
            }
            Button("Simulate an expired session") {
                router.showGlobalDialog(.sessionExpired, policy: .queue)
            }
        }
    }
}

#endif
