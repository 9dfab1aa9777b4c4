/// The subscriber registry shared by both broadcasters; owned by, and only
/// used inside, a broadcaster actor.
struct FanOut<Value: Sendable> {
    /// Kept contiguous, so a send to 10,000 subscribers walks an array; the
    /// positions make removal O(1) (the last entry takes the gap).
    private var mailboxes: [(id: UInt64, mailbox: Mailbox<Value>)] = []
    /// Where each mailbox is, once there have been ``indexedFrom`` at once.
    /// Below that a scan finds one as fast, and most broadcasters (one per
    /// session, followed by its tabs) never reach it: no table to allocate.
    private var positions: [UInt64: Int] = [:]
    private var nextID: UInt64 = 0
    private var sequence: UInt64 = 0
    private let policy: Mailbox<Value>.Policy

    static var indexedFrom: Int { 16 }

    init(policy: Mailbox<Value>.Policy) {
        self.policy = policy
    }

    /// The ids of the registered mailboxes, in the order a send reaches them.
    var ids: [UInt64] { mailboxes.map(\.id) }

    /// Live subscribers.
    var count: Int {
        mailboxes.reduce(0) { $0 + ($1.mailbox.isClosed ? 0 : 1) }
    }

    /// Registers a new subscriber; `onClose` receives its id when it goes.
    mutating func add(onClose: @escaping @Sendable (UInt64) -> Void) -> Mailbox<Value> {
        let id = nextID
        nextID += 1
        let mailbox = Mailbox<Value>(policy: policy) { onClose(id) }
        mailboxes.append((id, mailbox))
        if !positions.isEmpty {
            positions[id] = mailboxes.count - 1
        } else if mailboxes.count >= Self.indexedFrom {
            for (position, entry) in mailboxes.enumerated() { positions[entry.id] = position }
        }
        return mailbox
    }

    mutating func remove(_ id: UInt64) {
        let found = positions.isEmpty ? mailboxes.firstIndex { $0.id == id } : positions.removeValue(forKey: id)
        guard let position = found else { return }
        let last = mailboxes.removeLast()
        if position < mailboxes.count {
            mailboxes[position] = last
            if !positions.isEmpty { positions[last.id] = position }
        }
    }

    /// Offers `value` to one mailbox (a new subscriber's replay).
    mutating func offer(_ value: Value, to mailbox: Mailbox<Value>) {
        sequence += 1
        mailbox.push(
            .init(sequence: sequence, value: value, token: Settlement.current?.enter()),
            waiter: nil, senderKey: nil)
    }

    /// Offers `value` to every subscriber, registering `waiter` with each
    /// one that must come back before an awaited delivery returns.
    mutating func broadcast(_ value: Value, waiter: DeliveryWaiter?) {
        sequence += 1
        let settlement = Settlement.current
        let senderKey = waiter == nil ? nil : DeliveryContext.currentTaskKey()
        for (_, mailbox) in mailboxes {
            mailbox.push(
                .init(sequence: sequence, value: value, token: settlement?.enter()),
                waiter: waiter, senderKey: senderKey)
        }
    }
}
