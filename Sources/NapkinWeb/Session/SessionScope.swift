import napkin

/// A session's scope: the session component the app built for it, and how
/// a tab's tree is launched from it. The launch closure holds the component
/// with its own type, so nothing casts it back from `any Sendable`.
struct SessionScope: Sendable {
    /// The session component, for whoever only needs to hold it.
    let component: any Sendable
    /// Launches a tab's tree from ``component``.
    let launch: @MainActor @Sendable () async -> any LaunchRouting

    /// The scope of `component`, whose trees `root` launches.
    init<Component: Sendable>(_ component: Component, root: @escaping @MainActor (Component) async -> any LaunchRouting) {
        self.component = component
        launch = { await root(component) }
    }
}
