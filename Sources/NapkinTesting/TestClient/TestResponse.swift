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
    /// The client (the tab) that received it, for ``click(link:)``.
    let client: TestClient?

    /// Creates a response value.
    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.init(status: status, headers: headers, body: body, client: nil)
    }

    init(status: Int, headers: HTTPHeaders, body: [UInt8], client: TestClient?) {
        self.status = status
        self.headers = headers
        self.body = body
        self.client = client
    }

    /// The tab id the page names (`<body data-napkin-tab>`), if any.
    public var tabID: String? { bodyAttributes?[WireProtocol.Attribute.tab] }

    /// The event stream URL the page names (`<body data-napkin-stream>`).
    public var streamPath: String? { bodyAttributes?[WireProtocol.Attribute.stream] }

    /// The session's CSRF token the page names (`<body data-napkin-csrf>`).
    public var csrfToken: String? { bodyAttributes?[WireProtocol.Attribute.csrf] }

    /// Follows the link whose text is `text` the way napkin's client does
    /// with JavaScript: a live navigation of the tab that received this
    /// page (no new tab, the stream stays open). Returns the new page.
    public func click(link text: String, fileID: String = #fileID, line: Int = #line) async throws -> TestResponse {
        guard let client else { throw TestClientError.noClient }
        guard let href = links.first(where: { $0.text == text })?.href else {
            throw TestClientError.noSuchLink(text: text, available: links.map(\.text))
        }
        return try await client.navigate(to: href, fileID: fileID, line: line)
    }

    /// The page's links (`<a href>`), with their text, in document order.
    public var links: [(text: String, href: String)] {
        HTMLScanner.tags(in: text[...]).compactMap { tag in
            guard tag.name == "a", let href = tag.attributes["href"] else { return nil }
            return (tag.content ?? "", href)
        }
    }

    private var bodyAttributes: [String: String]? {
        HTMLScanner.tags(in: text[...]).first { $0.name == "body" }?.attributes
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
