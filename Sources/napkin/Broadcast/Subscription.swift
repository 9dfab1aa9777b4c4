/// One subscriber's view of a broadcaster: an `AsyncSequence` of the values
/// sent after it subscribed (for a ``StateBroadcaster``, the current value
/// first).
///
/// Iterate it once, from one task. Coming back for the next value is what
/// acknowledges the previous one to senders that await delivery. The
/// subscription ends — and the broadcaster forgets it — when the iterating
/// task is cancelled, or when the sequence and its iterator are released.
public struct Subscription<Element: Sendable>: AsyncSequence, Sendable {
    /// A subscription never fails: it ends, and iteration returns `nil`.
    public typealias Failure = Never

    private let handle: Handle

    init(mailbox: Mailbox<Element>) {
        handle = Handle(mailbox: mailbox)
    }

    /// Values this subscriber lost because it fell behind a bounded buffer.
    public var droppedCount: Int { handle.mailbox.droppedCount }

    /// Ends the subscription now: the iterator returns `nil`.
    public func cancel() {
        handle.mailbox.close()
    }

    /// What an observing interactor keeps: the subscription lives as long
    /// as this does (see ``push(to:)``), and ``ObservedSubscription/end()``
    /// ends it.
    var observed: any ObservedSubscription { handle }

    /// Hands each value to `handler` (see ``Interactable/observe(_:_:)``).
    /// The caller keeps ``observed`` for as long as the values should come.
    func push(to handler: @escaping @Sendable (Element) async -> Void) {
        handle.mailbox.push(to: handler)
    }

    /// The iterator over this subscription's values (iterate a subscription
    /// once, from one task).
    public func makeAsyncIterator() -> Iterator {
        Iterator(handle: handle)
    }

    /// Iterates a ``Subscription``.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let handle: Handle

        /// The next value, waiting for it; `nil` once the subscription has
        /// ended. Asking for it acknowledges the previous value to a sender
        /// that awaits delivery (``StateBroadcaster/deliver(_:timeout:)``).
        public mutating func next() async -> Element? {
            await handle.mailbox.next()
        }
    }

    /// Closes the mailbox when the last copy of the sequence or iterator goes.
    fileprivate final class Handle: ObservedSubscription {
        let mailbox: Mailbox<Element>

        init(mailbox: Mailbox<Element>) {
            self.mailbox = mailbox
        }

        deinit {
            mailbox.close()
        }

        func end() {
            mailbox.close()
        }
    }
}

/// A subscription an interactor observes, as its lifecycle keeps it: one
/// reference, with no closure around it.
protocol ObservedSubscription: EndsWithActivation {}
