/// The fields of a toast's close button: the toast's id, read leniently,
/// so a stale or garbled id closes nothing rather than refusing the post.
public struct ToastDismissal: Decodable, Sendable, Equatable {
    /// The toast to close, if the post named one.
    public let toast: Int?

    /// The dismissal of toast `toast`.
    public init(toast: Int?) { self.toast = toast }

    /// Reads `toast`; anything but a whole number reads as none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        toast = (try? container.decode(String.self, forKey: .toast)).flatMap { Int($0) }
    }

    private enum CodingKeys: String, CodingKey { case toast }
}

extension FormAction where Input == ToastDismissal {
    /// The close button of a toast that ``WebViewController/toasts(_:content:)``
    /// renders. Declare it with a handler that closes the toast:
    ///
    /// ```swift
    /// action(.dismissToast) { form in await listener.didDismissToast(form.toast) }
    /// ```
    public static var dismissToast: FormAction<ToastDismissal> { FormAction("dismissToast") }
}
