/// Whether the napkin tree that work belongs to is shown to someone.
///
/// A platform launches a tree nobody looks at (NapkinWeb's answer to a JSON
/// request that names no tab) inside `Viewing.$isViewed.withValue(false)`.
/// The root takes the value when it launches and every child takes its
/// parent's when attached (``InteractorLifecycle/isViewed``); each
/// `didBecomeActive()`, bound task and observation of the tree then runs
/// with it, whatever task started it. Effects that others would see —
/// being present, counting a visit — belong to viewed trees only.
public enum Viewing {
    /// `true` unless a launcher said otherwise.
    @TaskLocal public static var isViewed = true

    /// Runs `body` with ``isViewed`` set to `viewed` (binding it only when
    /// that changes it).
    static func within<R: Sendable>(_ viewed: Bool, isolation: isolated (any Actor)? = #isolation, _ body: () async -> R) async -> R {
        if isViewed == viewed { return await body() }
        return await $isViewed.withValue(viewed) {
            _ = isolation
            return await body()
        }
    }
}
