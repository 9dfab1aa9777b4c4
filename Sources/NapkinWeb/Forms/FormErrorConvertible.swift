/// An app's own error that refuses a form: napkin shows it as the
/// ``FormError`` it converts to, as it shows a `FormError` itself.
///
/// A service's error can say which field it is about, so that the
/// interactor passes it on untouched instead of catching and rethrowing
/// it:
///
/// ```swift
/// extension LoginError: FormErrorConvertible {
///     var formError: FormError { FormError(description, field: "name") }
/// }
/// ```
///
/// The conversion is the app's choice of words: napkin never shows any
/// other error's description, which could name internals.
public protocol FormErrorConvertible: Error {
    /// What to tell the person, and the field at fault.
    var formError: FormError { get }
}

extension FormError {
    /// `error` as a refusal of the form, when it is one (a ``FormError``
    /// or ``FormErrorConvertible``); otherwise `error` itself.
    static func refusal(_ error: any Error) -> any Error {
        (error as? any FormErrorConvertible)?.formError ?? error
    }
}
