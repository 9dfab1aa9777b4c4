import napkin

/// A leaf: nothing to attach.
@MainActor
final class SpecialsNapkinRouter: ViewableRouter<SpecialsNapkinInteractor, SpecialsNapkinViewController> {}
