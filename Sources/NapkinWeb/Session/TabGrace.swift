/// How long a tab nobody views is kept (see
/// ``NapkinConfiguration/tabGracePeriod`` and
/// ``NapkinConfiguration/newTabGracePeriod``).
struct TabGrace: Sendable {
    /// Since the tab's last stream closed.
    var streamed: Duration
    /// Since the last page view of a tab that never opened a stream; at
    /// least ``streamed``.
    var new: Duration
}
