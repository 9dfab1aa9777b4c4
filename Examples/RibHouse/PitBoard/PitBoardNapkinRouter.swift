import napkin

/// A leaf: nothing to attach.
@MainActor
final class PitBoardNapkinRouter: ViewableRouter<PitBoardNapkinInteractor, PitBoardNapkinViewController> {}
