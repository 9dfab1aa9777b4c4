import NapkinHTTP
@_spi(Napkin) import NapkinSupport

extension NapkinApp {
    /// A page's goodbye (`POST /_napkin/leave`, napkin's client's beacon on
    /// `pagehide`): the tab it names starts its grace now, its streams
    /// ended, rather than when the server notices them drop. A reload's new
    /// page opens its tab within the grace, so nobody sees it leave. It
    /// starts the grace rather than releasing at once because a page put in
    /// the back/forward cache says goodbye too, and may be shown again.
    ///
    /// Authenticated like a form post (the session's CSRF token, the origin
    /// check), so nobody else can end a tab: `204` when the tab is without
    /// a viewer now (again: it is idempotent), `400` for a malformed post,
    /// `403` without a session cookie, the session's token, or from another
    /// origin, and `410` when this process holds no such tab of the session
    /// (released, or another session's).
    func leave(_ request: Request) async throws -> Response {
        let fields = try request.formFields()
        func field(_ name: String) -> String? { fields.last { $0.name == name }?.value }
        guard let tabID = field(WireProtocol.Field.tab), SecureToken.isWellFormed(tabID) else {
            throw HTTPError(.badRequest, "The goodbye names no tab.")
        }
        guard let id = request.cookie(configuration.sessionCookieName), SecureToken.isWellFormed(id), !store.isRetired(id) else {
            throw Self.sessionEnded
        }
        // Only a session held here has tabs: one that left memory is not
        // rebuilt from its record to say goodbye to nothing.
        guard let session = store.session(id: id) else { return Self.tabGone }
        try checkPost(request, token: field(WireProtocol.Field.csrf), of: session)
        guard let tab = session.tab(id: tabID) else { return Self.tabGone }
        session.leave(tab, now: store.now)
        return Response(status: .noContent)
    }

    private static var tabGone: Response { Response.text("This tab was closed by the server.", status: .gone) }
}
