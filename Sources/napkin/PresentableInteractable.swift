/// An interactor paired with a presenter: it sends view state through
/// `presenter` (a main-actor object, reached with `await`).
public protocol PresentableInteractable: Interactable {
    /// The type the interactor presents through, usually a feature's
    /// `Presentable` protocol.
    associatedtype PresenterType: Sendable

    /// The presenter, readable from any isolation because it never changes.
    nonisolated var presenter: PresenterType { get }
}
