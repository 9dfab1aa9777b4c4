import napkin

@MainActor
protocol LoggedOutNapkinRouting: ViewableRouting {}

/// A leaf: nothing to attach.
@MainActor
final class LoggedOutNapkinRouter: ViewableRouter<LoggedOutNapkinInteractor, LoggedOutNapkinViewController>, LoggedOutNapkinRouting {}
