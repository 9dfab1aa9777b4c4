/// What survives of a browser session when its process does not: the id,
/// the CSRF token, and the small typed values that session-scoped services
/// keep (who is signed in). A napkin tree is live objects and is never
/// stored; any process that gets a request for a session it does not hold
/// rebuilds the session's scope and tabs from this record.
public struct SessionRecord: Sendable, Equatable, Codable {
    /// The session id (the `napkin_session` cookie).
    public var id: String
    /// The token the session's forms carry.
    public var csrfToken: String
    /// The session's values, each as JSON text, by key.
    public var values: [String: String]

    /// A record.
    public init(id: String, csrfToken: String, values: [String: String] = [:]) {
        self.id = id
        self.csrfToken = csrfToken
        self.values = values
    }
}
