/// Events offered to many event streams at once, as one burst: a change that
/// patches thousands of tabs offers every patch first, and only then are the
/// streams' connections woken, each server loop once.
///
/// Offering outside a burst wakes each stream's connection at once, which is
/// right for one event but, for a burst, wakes the loops again and again while
/// the rest is still being made.
public enum EventBurst {
    /// Runs `offer`, which offers events to any number of event streams; their
    /// connections are woken together when it returns (a nested burst ends
    /// with the outermost).
    public static func offering<T>(_ offer: () throws -> T) rethrows -> T {
        try StreamWakeups.coalescing(offer)
    }
}
