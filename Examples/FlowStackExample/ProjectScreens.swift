#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)
import FlowStack

// The signed-in app: home, projects, a project, its editor.

/// The signed-in home screen.
struct HomeScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "Home", message: "Everything the router can do, one button each.") {
            Button("Projects") { router.push(.projects) }
            Button("Settings") { router.push(.settings) }
            Button("What's new") { router.sheet(.promo) }
            Button("Go premium") { router.fullScreenCover(.paywall) }
            Button("Open project 2 in the editor") {
                // One jump of several steps: FlowStackView plays it in steps SwiftUI accepts.
                router.transaction { router in
                    router.push(contentsOf: [.projects, .detail(id: "2")])
                    router.sheet(.editor(id: "2"))
                }
            }
            Button("Simulate two network errors") {
                router.showGlobalDialog(.networkError, policy: .queue)
                router.showGlobalDialog(.networkError, policy: .queue)
            }
        }
    }
}

/// The list of projects.
struct ProjectsScreen: View {
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "Projects", message: "Three sample projects.") {
            ForEach(["1", "2", "3"], id: \.self) { id in
                Button("Project \(id)") { router.push(.detail(id: id)) }
            }
        }
    }
}

/// One project.
struct ProjectDetailScreen: View {
    /// The project's id.
    let id: String
    /// The app's router.
    let router: AppRouter

    var body: some View {
        ExampleScreenLayout(title: "Project \(id)", message: "Edit it here or in a sheet.") {
            Button("Edit") { router.push(.editor(id: id)) }
            Button("Edit in a sheet") { router.sheet(.editor(id: id)) }
            Button("Delete", role: .destructive) { router.showGlobalDialog(.deleteConfirmation) }
        }
    }
}

/// The editor of one project.
struct EditorScreen: View {
    /// The project's id.
    let id: String
    /// The app's router.
    let router: AppRouter
    /// The text being edited (kept while the screen keeps its identity).
    @State private var draft = ""

    var body: some View {
        ExampleScreenLayout(title: "Editor", message: "Editing project \(id).") {
            Text(draft.isEmpty ? "Nothing typed yet." : draft)
            Button("Type something") { draft += "Lorem ipsum. " }
            Button("Done") {
                if router.activeStack.pathCount > 0 {
                    router.pop()
                } else {
                    router.dismiss()
                }
            }
        }
    }
}

#endif
