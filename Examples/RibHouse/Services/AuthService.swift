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

/// The smokehouse's auth service: no passwords, a name is enough. A
/// `StateBroadcaster` is napkin's `CurrentValueSubject`: it replays the
/// current user to each new subscriber and fans every change out. The user
/// is also kept in the session's values, written through before the change
/// is announced, so a restart (or another process) starts from it.
actor BarbecueAuthService: AuthService {
    private let values: SessionValues
    private let user: StateBroadcaster<User?>

    init(values: SessionValues) {
        self.values = values
        user = StateBroadcaster(values.value(for: .user))
    }

    func login(name: String) async throws -> User {
        let signedIn = User(name: try LoginError.validate(name: name), barbecueFoods: User.barbecueFoods)
        try await values.set(.user, to: signedIn)
        await user.send(signedIn)
        return signedIn
    }

    func logout() async throws {
        try await values.set(.user, to: nil)
        await user.send(nil)
    }

    func userStream() async -> Subscription<User?> {
        await user.subscribe()
    }
}

extension SessionKey where Value == User {
    /// Who is signed in, in the session's record.
    static let user = SessionKey("user")
}
