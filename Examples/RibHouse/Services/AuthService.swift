import napkin

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
    func logout() async
    /// The current user (`nil` when signed out), then every change.
    func userStream() async -> Subscription<User?>
}

/// The in-memory auth service: no passwords at the smokehouse, a name is
/// enough. A `StateBroadcaster` is napkin's `CurrentValueSubject`: it replays
/// the current user to each new subscriber and fans every change out.
actor BarbecueAuthService: AuthService {
    private let user = StateBroadcaster<User?>(nil)

    func login(name: String) async throws -> User {
        let signedIn = User(name: try LoginError.validate(name: name), barbecueFoods: User.barbecueFoods)
        await user.send(signedIn)
        return signedIn
    }

    func logout() async {
        await user.send(nil)
    }

    func userStream() async -> Subscription<User?> {
        await user.subscribe()
    }
}
