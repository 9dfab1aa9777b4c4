import NapkinHTTP

extension NapkinApp {
    /// A validation pass (``WireProtocol/Header/validate``): napkin's
    /// client asks, as the person types, whether a form of an action that
    /// validates while typing would be taken.
    ///
    /// It checks the CSRF token and the origin of `session` (the one the
    /// request's cookie names) as a post does, then runs only the action's decoder and its `validate`: no
    /// handler, no listener, no problem kept, no tab brought back or
    /// touched, no form token spent. `204` when there is nothing to say,
    /// `200` with ``WireProtocol/ValidationData`` when there is.
    func validation(_ request: Request, fields: [(name: String, value: String)], in session: WebSession) throws -> Response {
        func field(_ name: String) -> String? { fields.last { $0.name == name }?.value }
        try checkPost(request, token: request.headers[WireProtocol.Header.csrf] ?? field(WireProtocol.Field.csrf), of: session)
        guard let tab = session.tab(id: field(WireProtocol.Field.tab)),
            let fragment = field(WireProtocol.Field.fragment).flatMap(tab.fragment(id:))
        else {
            throw HTTPError(.notFound, "Unknown fragment: it may have left the page. Reload the page.")
        }
        guard let name = field(WireProtocol.Field.action), let action = fragment.action(named: name) else {
            throw HTTPError(.notFound, "Unknown action.")
        }
        guard action.whileTyping != nil else {
            throw HTTPError(.badRequest, "This action is not checked while typing.")
        }
        var response: Response
        do {
            try action.check(request)
            response = Response(status: .noContent)
        } catch let error as FormError {
            response = try .json(WireProtocol.ValidationData(field: error.field, message: error.message))
        }
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
