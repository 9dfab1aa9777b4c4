/// Something an interactor keeps while it is active, ended when it resigns
/// active: the lightest way to tie a thing (a presence, a registration) to
/// the active scope, with no task kept waiting for the end.
///
/// Hand it to ``Interactable/keep(_:)``; napkin calls ``end()`` once, after
/// `willResignActive()`, as it cancels the bound tasks (or when the
/// interactor goes, or at once when it is not active).
public protocol EndsWithActivation: AnyObject, Sendable {
    /// The activation it was kept in has ended. Called once, synchronously:
    /// start a task for any async work.
    func end()
}
