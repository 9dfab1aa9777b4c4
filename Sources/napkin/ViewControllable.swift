/// The platform's view of a napkin. napkin itself is platform-neutral: a
/// platform layer (napkin's web layer renders HTML fragments) refines this
/// protocol with what its views can do.
@MainActor
public protocol ViewControllable: AnyObject, Sendable {}
