import NapkinWeb

/// What the tabs' napkins need from the app, each declared once by the
/// napkin that uses it.
protocol SessionDependency: LoggedOutNapkinDependency, LoggedInNapkinDependency, AnnouncementsNapkinDependency {}

/// One browser session's scope, shared by all its tabs. napkin builds it
/// once per session. Its `authService` is `shared`, so every tab of a
/// session sees the same guest: signing out in one tab signs out the
/// others, live — and signing in one browser signs in no other.
final class SessionComponent: Component<any SessionDependency>, LaunchNapkinDependency, @unchecked Sendable {
    // Safe to share: its one stored property is immutable and Sendable.

    /// The session's record, which outlives this process.
    let values: SessionValues

    init(dependency: any SessionDependency, values: SessionValues) {
        self.values = values
        super.init(dependency: dependency)
    }

    var authService: any AuthService { shared { BarbecueAuthService(values: values) } }
    /// The app's scope, which gives Launch's children what they need: the
    /// session adds to it without forwarding it.
    var app: any SessionDependency { dependency }
}
