import Foundation
import NapkinHTTP
import NapkinWeb

/// A response as a test sees it: status, headers and the whole body.
public struct TestResponse: Sendable {
    /// The status code.
    public let status: Int
    /// The response headers.
    public let headers: HTTPHeaders
    /// The body bytes.
    public let body: [UInt8]

    /// Creates a response value.
    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as JSON.
    public func json<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(type, from: Data(body))
    }

    /// The forms of an HTML body, in document order.
    public var forms: [HTMLForm] { HTMLForm.parseAll(text) }

    /// The form that has a submit button labelled `buttonText`.
    public func form(withButton buttonText: String) -> HTMLForm? {
        forms.first { form in form.buttons.contains { $0.text == buttonText } }
    }
}
