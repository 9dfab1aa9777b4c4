import NapkinHTTP
import napkin

extension NapkinApp {
    /// A form post: checks the session, the CSRF token and the origin, runs
    /// the fragment's action in the fragment's tab, waits for it to settle,
    /// then answers `204` to napkin's client or `303` back to the page.
    ///
    /// An action that throws a ``FormError`` leaves its problem on the
    /// fragment, which re-renders with it: napkin's client gets `422` with
    /// the fragment's HTML to put in place, a browser without JavaScript
    /// the same `303`, whose page shows it. A post of the action that
    /// succeeds clears it.
    func action(_ request: Request) async throws -> Response {
        guard let session = try await existingSession(for: request) else {
            throw Self.sessionEnded
        }
        let fields = try request.formFields()
        if request.headers[WireProtocol.Header.validate] == "1" {
            return try validation(request, fields: fields, in: session)
        }
        // One action of a session at a time: the second of two logins sent
        // at once runs after the first, and finds its id gone.
        return try await session.actionTurns.run {
            try await self.runAction(request, fields: fields, in: session)
        }
    }

    private func runAction(_ request: Request, fields: [(name: String, value: String)], in session: WebSession) async throws -> Response {
        func field(_ name: String) -> String? { fields.last { $0.name == name }?.value }
        let idBefore = session.id
        guard request.cookie(configuration.sessionCookieName) == idBefore else { throw Self.sessionEnded }
        try checkPost(request, token: request.headers[WireProtocol.Header.csrf] ?? field(WireProtocol.Field.csrf), of: session)
        // The way back goes into a redirect's head, which has little room:
        // refused before the action runs, not after it rotated the session.
        if let back = field(WireProtocol.Field.returnPath), back.utf8.count > ReturnPath.maxBytes {
            throw HTTPError(.badRequest, "The form's return path is too long.")
        }
        guard let (tab, fragment) = await fragment(
            field(WireProtocol.Field.fragment), tab: field(WireProtocol.Field.tab), return: field(WireProtocol.Field.returnPath), in: session)
        else {
            throw HTTPError(.notFound, "Unknown fragment: it may have left the page. Reload the page.")
        }
        guard let name = field(WireProtocol.Field.action), let action = fragment.action(named: name) else {
            throw HTTPError(.notFound, "Unknown action.")
        }
        session.touch(tab, now: store.now)
        let javascript = request.headers[WireProtocol.Header.client] == "1"
        let token = field(WireProtocol.Field.formToken).flatMap(FormTokenLedger.Token.init)
        if let token, session.formTokens.isSpent(token) {
            // A replay of a post that ran: answered as the first was (its
            // fields, so its way back, are the same), and not run again.
            tab.awaitsRedirect = !javascript
            return javascript
                ? Response(status: .noContent, headers: [WireProtocol.Header.formToken: FormTokenLedger.mint()])
                : .redirect(to: ReturnPath.sanitize(field(WireProtocol.Field.returnPath)))
        }
        tab.users += 1
        defer { tab.users -= 1 }
        let ticket = RequestTicket()
        // A refusal is an answer like any other: what the action did before
        // it still settles. The fragment learns the outcome as soon as the
        // action returns, so the patches of what it set off carry it.
        let (refusal, report) = try await Settlement.run(timeout: configuration.settleTimeout) { () async throws -> FormError? in
            try await RequestSession.$ticket.withValue(ticket) {
                try await RequestSession.$current.withValue(session) { () async throws -> FormError? in
                    do {
                        try await action.run(request)
                        fragment.clearProblem(for: name)
                        if let token {
                            session.formTokens.spend(token)
                            fragment.formTokenSpent()
                        }
                        return nil
                    } catch let error as FormError {
                        if fragment.isMounted(in: tab) {
                            // Keys are what the view rendered (an item's id): a longer one is not kept.
                            let key = field(WireProtocol.Field.key).flatMap { $0.utf8.count <= FormProblem.maxKeyBytes ? $0 : nil }
                            let id = FragmentID.problem(in: fragment.fragmentID, action: name, key: key)
                            fragment.record(FormProblem(error, id: id, key: key, fields: fields), for: name)
                        }
                        return error
                    } catch is SessionValues.Unavailable {
                        throw Self.sessionsUnavailable
                    }
                }
            }
        }
        metrics?.settled(report, at: .action)
        tab.flush()
        // Without JavaScript the browser follows the 303 with a page load:
        // it shows this tab, with what the post left on it.
        tab.awaitsRedirect = !javascript
        var response: Response
        if !javascript {
            response = .redirect(to: ReturnPath.sanitize(field(WireProtocol.Field.returnPath)))
        } else if let refusal {
            response = Self.refused(refusal, fragment: fragment, in: tab)
        } else {
            response = Response(status: .noContent)
            // The form stays on the page: its next post needs a new token.
            if token != nil { response.headers[WireProtocol.Header.formToken] = FormTokenLedger.mint() }
        }
        try await finishRotation(of: session, from: idBefore, ticket: ticket, response: &response)
        return response
    }

    /// Refuses (`403`) a post of `session` without its CSRF token, or
    /// from another origin.
    func checkPost(_ request: Request, token: String?, of session: WebSession) throws {
        // A token napkin makes, never an empty one: a session whose own
        // token is malformed accepts no form.
        guard let token, SecureToken.isWellFormed(token), SecureToken.constantTimeEquals(token, session.csrfToken) else {
            throw HTTPError(.forbidden, "Invalid or missing CSRF token.")
        }
        // A browser sends one Origin; a request with several is checked on
        // every one, so a foreign one cannot hide behind the first.
        let origins = request.headers.values(for: "Origin")
        if origins.contains(where: { !OriginCheck.accepts($0, request: request, configuration: configuration) }) {
            throw HTTPError(.forbidden, "Cross-origin form posts are refused.")
        }
    }

    /// napkin's client's answer to a refused post: `422` with the fragment
    /// re-rendered with its problem, which the client puts in place; just
    /// the message when the action took the fragment off the page.
    private static func refused(_ refusal: FormError, fragment: WebViewController, in tab: WebTab) -> Response {
        var response: Response =
            fragment.isMounted(in: tab)
            ? .html(fragment.render().rendered, status: .unprocessableEntity)
            : .text(refusal.message, status: .unprocessableEntity)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// The fragment a form posts to, in the tab the form names. A tab this
    /// process does not hold (released, or rendered by a process that has
    /// since stopped) is brought back at the form's page, under its id:
    /// fragment ids name places in the tree, so the fragment is there again.
    private func fragment(_ id: String?, tab tabID: String?, return back: String?, in session: WebSession) async
        -> (WebTab, WebViewController)?
    {
        guard let id else { return nil }
        guard let tabID else { return session.fragment(id: id) }
        if let tab = session.tab(id: tabID) {
            // A tab another request is bringing back has its tree once that
            // launch ends.
            if tab.router == nil {
                await tab.beginNavigation()
                tab.endNavigation()
            }
            return tab.fragment(id: id).map { (tab, $0) }
        }
        guard SecureToken.isWellFormed(tabID) else { return nil }
        let tab = await launchTab(in: session, id: tabID)
        defer { tab.users -= 1 }
        _ = await navigate(tab, to: WebPath(ReturnPath.sanitize(back)))
        return tab.fragment(id: id).map { (tab, $0) }
    }

    /// A tab's event stream (`?tab=…`; without it, the most recent tab's).
    /// `204` (which tells `EventSource` to stop) when there is no session —
    /// the stream never creates one — and `410` when the session no longer
    /// has the tab (napkin's client then reloads the page in place, in a
    /// new tab). A `HEAD` gets the stream's headers and opens nothing.
    func events(_ request: Request) async throws -> Response {
        if isDraining, request.method == .get { return drainedStream() }
        guard let session = try await existingSession(for: request) else {
            return Response(status: .noContent)
        }
        let named = request.query[WireProtocol.Query.tab]
        var tab = if let named { session.tab(id: named) } else { session.mostRecentTab }
        // A tab another process held until it drained comes back here, at
        // its page, under its id; its stream starts with the whole page.
        var broughtBack = false
        if tab == nil, request.method == .get, let named, SecureToken.isWellFormed(named),
           let path = request.query[WireProtocol.Query.path] {
            let launched = await launchTab(in: session, id: named)
            defer { launched.users -= 1 }
            _ = await navigate(launched, to: WebPath(ReturnPath.sanitize(path)))
            tab = launched
            broughtBack = true
        }
        guard let tab else {
            return Response.text("This tab was closed by the server. Reload the page.", status: .gone)
        }
        guard request.method == .get else {
            return Response(status: .ok, headers: ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache"])
        }
        session.touch(tab, now: store.now)
        let lastEventID = broughtBack
            ? nil : (request.headers["Last-Event-ID"] ?? request.query[WireProtocol.Query.lastEventID]).flatMap(LastEventID.parse)
        let stream = session.openStream(for: tab, lastEventID: lastEventID)
        return .eventStream(frames: stream, heartbeat: configuration.heartbeat)
    }
}
