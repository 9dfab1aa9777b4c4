import NapkinHTTP
import napkin

extension NapkinApp {
    /// A page: navigates a tab's tree to the path, then renders it (or, for
    /// `Accept: application/json`, snapshots it). A live navigation moves
    /// the tab it names; the page after a post without JavaScript shows the
    /// form's tab; a browser without napkin's client keeps its most recent
    /// tab while that has no stream (so a toast that reached it is on its
    /// next page); any other page load opens a tab. JSON that names no tab
    /// is answered from a tree torn down at once, launched unviewed
    /// (``/napkin/Viewing``). Only a page view (a `GET`
    /// that accepts HTML) starts a session; `HEAD` and subresource requests
    /// (`Sec-Fetch-Dest`) touch no tab.
    func page(_ request: Request) async throws -> Response {
        let path = WebPath(request.path)
        let pageView = PageResponder.isPageView(request)
        let wantsJSON = request.method == .get && PageResponder.wantsJSON(request)
        guard let session = try await existingSession(for: request) else {
            // Only a page view is seen: any other request's tree is for nobody.
            let (session, tab, claimed) = await Viewing.$isViewed.withValue(pageView) {
                let (session, tab) = await launchSession()
                return (session, tab, await navigate(tab, to: path))
            }
            var response = respond(request, tab: tab, path: path, claimed: claimed)
            tab.users -= 1
            if claimed, pageView {
                try await keep(session)
                response.setCookie(configuration.sessionCookie(id: session.id))
            } else {
                await Viewing.$isViewed.withValue(false) { await session.terminate() }
            }
            return response
        }
        guard pageView || wantsJSON else {
            return request.method == .head
                ? Response(status: .ok, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"])
                : Response.text("Not Found", status: .notFound)
        }
        let requestedTab = request.headers[WireProtocol.Header.tab]
        let named = session.tab(id: requestedTab)
        if wantsJSON, named == nil {
            // A program asking for the tree at a path: a tree of its own,
            // which nobody views (see `Viewing`), so what app code would
            // show others (a presence) does not happen.
            return await Viewing.$isViewed.withValue(false) {
                let tab = await launchTab(in: session)
                let claimed = await navigate(tab, to: path)
                let response = respond(request, tab: tab, path: path, claimed: claimed)
                await release([tab])
                return response
            }
        }
        let tab: WebTab
        if let reused = named ?? tabToReuse(in: session, for: request, naming: requestedTab) {
            tab = reused
            tab.users += 1
        } else {
            // A live navigation of a tab this process does not hold gets it
            // back under the same id, so the page's stream finds it. (A
            // launched tab starts with this request as its user.)
            tab = await launchTab(in: session, id: requestedTab)
        }
        tab.awaitsRedirect = false
        session.touch(tab, now: store.now)
        let idBefore = session.id
        let ticket = RequestTicket()
        // The page answers a live navigation, so its stream need not; a
        // JSON answer is no page, and the stream still gets the changes.
        let claimed = await RequestSession.$ticket.withValue(ticket) {
            await navigate(tab, to: path, live: requestedTab != nil && !wantsJSON)
        }
        tab.users -= 1
        await release(session.expiredTabs(now: store.now, grace: tabGrace))
        // A page of a session whose id rotated meanwhile is no longer this
        // request's to see (unless it rotated it itself).
        guard session.id == idBefore || ticket.rotated else { throw Self.sessionEnded }
        var response = respond(request, tab: tab, path: path, claimed: claimed)
        try await finishRotation(of: session, from: idBefore, ticket: ticket, response: &response)
        return response
    }

    /// The session's tab that a page view naming no tab of this process
    /// shows, if one is to be reused: the tab whose form post (without
    /// JavaScript) this page load follows, or — for a browser that does not
    /// run napkin.js — its most recent tab while that has no stream. `nil`:
    /// the page view opens a new tab.
    private func tabToReuse(in session: WebSession, for request: Request, naming requestedTab: String?) -> WebTab? {
        guard let recent = session.mostRecentTab else { return nil }
        if recent.awaitsRedirect { return recent }
        if requestedTab == nil, request.cookie(WireProtocol.Cookie.script) == nil, recent.streamCount == 0 { return recent }
        return nil
    }

    /// Moves `tab`'s tree to `path`, settled. A live navigation's response
    /// carries the whole page, so the changes it made are not also sent
    /// down the tab's streams; otherwise they are.
    func navigate(_ tab: WebTab, to path: WebPath, live: Bool = false) async -> Bool {
        // The caller renders the page right after, with no wait in between,
        // so the next navigation of this tab starts after that.
        await tab.beginNavigation()
        defer { tab.endNavigation() }
        if live {
            // Changes already made go to the streams; the navigation's wait
            // for the page.
            tab.flush()
            tab.holdingPatches = true
        }
        let (claimed, report) = await Settlement.run(timeout: configuration.settleTimeout) {
            await RequestSession.$current.withValue(tab.session) {
                await tab.navigate(to: path)
            }
        }
        metrics?.settled(report, at: .page)
        if live { tab.absorbChanges() } else { tab.flush() }
        return claimed
    }

    private func respond(_ request: Request, tab: WebTab, path: WebPath, claimed: Bool) -> Response {
        var response: Response
        if PageResponder.wantsJSON(request) {
            response = treeResponse(tab, path: path, claimed: claimed)
        } else {
            let body = claimed ? tab.renderRoot() : configuration.notFoundBody
            let page = configuration.layout.renderedBytes(
                body: body, csrfToken: tab.session?.csrfToken ?? "", eventID: tab.lastEventID,
                eventsPath: tab.streamPath, tabID: tab.id, pageTitle: claimed ? tab.pageTitle : nil)
            response = Response(status: claimed ? .ok : .notFound, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(page))
            response.headers[WireProtocol.Header.eventID] = String(tab.lastEventID)
        }
        tab.trimRenders()
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    private func treeResponse(_ tab: WebTab, path: WebPath, claimed: Bool) -> Response {
        struct Body: Encodable {
            let path: String
            let found: Bool
            let tree: TreeSnapshot?
        }
        let body = Body(path: path.description, found: claimed, tree: tab.snapshot)
        let bytes = (try? SafeJSON.data(body, pretty: true)) ?? Array("{}".utf8)
        return Response(
            status: claimed ? .ok : .notFound,
            headers: ["Content-Type": "application/json; charset=utf-8"],
            body: .bytes(bytes))
    }
}
