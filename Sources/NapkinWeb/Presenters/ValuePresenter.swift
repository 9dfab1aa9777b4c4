import Observation
import napkin

/// A presenter whose state is one value: the latest its interactor
/// presented, as a screen that follows one stream shows it.
///
/// ```swift
/// typealias ScorePresenter = ValuePresenter<Score?>
///
/// // The interactor follows the game:
/// observe(await game.scores()) { [presenter] in await presenter.present($0) }
///
/// // The view reads it:
/// override func body() -> HTML { "<p>\(presenter.value?.text ?? "No score yet")</p>" }
/// ```
///
/// A value equal to the one shown is not presented again, so a stream
/// that repeats itself costs no render and no patch. Its JSON snapshot is
/// the value itself.
@MainActor
@Observable
public final class ValuePresenter<Value: Equatable & Sendable>: Presentable {
    /// The value shown.
    public private(set) var value: Value

    /// A presenter showing `value` until the first ``present(_:)``.
    public init(_ value: Value) { self.value = value }

    /// Shows `value`, unless it equals the value shown.
    public func present(_ value: Value) {
        if value != self.value { self.value = value }
    }
}

extension ValuePresenter: StatePresenting where Value: Encodable {
    /// The value shown.
    public var state: Value { value }
}
