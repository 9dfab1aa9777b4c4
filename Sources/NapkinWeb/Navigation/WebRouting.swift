import napkin

/// A router that shows pages: per request, napkin hands it the path, and it
/// attaches and detaches children to match, passing ``WebPath/rest`` on.
///
/// ```swift
/// func navigate(to path: WebPath) async -> Bool {
///     switch path.first {
///     case nil: await routeAwayFromPitBoard(); return true
///     case "pit": await routeToPitBoard(); return path.rest.isRoot
///     default: return false
///     }
/// }
/// ```
@MainActor
public protocol WebRouting: Routing {
    /// Attaches and detaches children to show `path`; returns whether this
    /// subtree claims the path (`false` answers 404).
    func navigate(to path: WebPath) async -> Bool
}
