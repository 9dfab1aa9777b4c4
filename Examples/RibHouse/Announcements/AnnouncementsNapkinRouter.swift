import napkin

/// A headless leaf: a router for its place in the tree, nothing to show.
@MainActor
final class AnnouncementsNapkinRouter: Router<AnnouncementsNapkinInteractor> {}
