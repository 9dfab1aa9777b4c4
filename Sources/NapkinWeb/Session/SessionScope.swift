import napkin

/// A session's scope: how a tab's tree is launched from the session
/// component the app built for the session. The launch closure holds the
/// component with its own type, so nothing casts it back from `any Sendable`.
struct SessionScope: Sendable {
    /// Launches a tab's tree from the session component.
    let launch: @MainActor @Sendable () async -> any LaunchRouting

    /// The scope of `component`, whose trees `root` launches.
    init<Component: Sendable>(_ component: Component, root: @escaping @MainActor (Component) async -> any LaunchRouting) {
        launch = { await root(component) }
    }
}
