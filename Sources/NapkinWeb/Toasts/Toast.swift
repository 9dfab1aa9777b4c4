/// One message of a page's ``Toasts``: its id, unique among the toasts of
/// its ``Toasts``, and what it says.
public struct Toast<Content: Sendable>: Identifiable, Sendable {
    /// The toast's number, counted from 1 by its ``Toasts``.
    public let id: Int
    /// What the toast shows, rendered by the view (see
    /// ``WebViewController/toasts(_:content:)``).
    public let content: Content
}

extension Toast: Equatable where Content: Equatable {}

/// A toast's JSON: `{"id": 1, "content": …}`.
extension Toast: Encodable where Content: Encodable {}
