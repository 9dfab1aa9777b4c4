import NapkinWeb

/// Who is signed in, for one browser session.
///
/// `login` and `logout` only change state; `userStream()` is the state —
/// the current user first, then every change. The Launch napkin routes from
/// that stream alone, so there is exactly one place that decides whether a
/// guest sees the login or the menu.
protocol AuthService: Sendable {
    /// Signs `name` in; throws ``LoginError`` when the name is not acceptable.
    @discardableResult
    func login(name: String) async throws -> User
    /// Signs the guest out.
    func logout() async throws
    /// The current user (`nil` when signed out), then every change.
    func userStream() async -> Subscription<User?>
}

/// The smokehouse's auth service: no passwords, a name is enough. Who is
/// signed in is session state: kept in the session's record, written
/// through before the change is announced, so a restart (or another
/// process) starts from it, and replayed to each new subscriber.
actor BarbecueAuthService: AuthService {
    private let user: SessionState<User>

    init(values: SessionValues) {
        user = SessionState(.user, in: values)
    }

    func login(name: String) async throws -> User {
        let signedIn = User(name: try LoginError.validate(name: name), barbecueFoods: User.barbecueFoods)
        try await user.set(signedIn)
        return signedIn
    }

    func logout() async throws {
        try await user.set(nil)
    }

    func userStream() async -> Subscription<User?> {
        await user.subscribe()
    }
}

extension SessionKey where Value == User {
    /// Who is signed in, in the session's record.
    static let user = SessionKey("user")
}
