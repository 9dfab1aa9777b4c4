import NapkinHTTP

/// Answers every path no route claimed: a static file when one exists,
/// otherwise the session's page.
struct PageResponder: HTTPResponder {
    let app: NapkinApp
    let files: StaticFiles?

    func answer(_ request: Request) -> Answer {
        guard request.method == .get || request.method == .head else {
            var response = Response.text("Method Not Allowed", status: .methodNotAllowed)
            response.headers["Allow"] = "GET, HEAD"
            return .now(response)
        }
        if let files, let file = files.lookup(request) {
            return .now(file)
        }
        let app = app
        return .mainActor { try await app.page(request) }
    }

    /// Whether the request is a page view: a `GET` for a document that takes
    /// HTML, or napkin's client navigating a tab in place. A browser's own
    /// subresource requests (the favicon, an image) say otherwise in
    /// `Sec-Fetch-Dest`, so they never move a tab's tree.
    static func isPageView(_ request: Request) -> Bool {
        guard request.method == .get, acceptsHTML(request) else { return false }
        guard let destination = request.headers["Sec-Fetch-Dest"]?.lowercased() else { return true }
        return destination == "document" || destination == "iframe" || destination == "frame"
            || (destination == "empty" && request.headers[WireProtocol.Header.tab] != nil)
    }

    /// Whether the client takes HTML: no `Accept` field, or one listing
    /// `text/html`, `text/*` or `*/*`.
    static func acceptsHTML(_ request: Request) -> Bool {
        request.headers["Accept"] == nil || request.acceptFieldLists("text/html")
            || request.acceptFieldLists("*/*") || request.acceptFieldLists("text/*")
    }

    /// Whether the client asked for JSON rather than HTML: its `Accept`
    /// field lists `application/json` and not `text/html`.
    static func wantsJSON(_ request: Request) -> Bool {
        request.acceptFieldLists("application/json") && !request.acceptFieldLists("text/html")
    }
}
