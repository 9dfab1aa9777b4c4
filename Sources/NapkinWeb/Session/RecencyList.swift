/// Something a ``RecencyList`` threads its links through: a session or a tab.
@MainActor
protocol RecencyLinked: AnyObject {
    var newer: Self? { get set }
    var older: Self? { get set }
}

/// Objects in most-recently-used order: a doubly linked list threaded
/// through the objects themselves, so moving one to the front, removing one
/// and finding the least recently used are O(1) at any count.
@MainActor
struct RecencyList<Node: RecencyLinked> {
    private(set) var head: Node?
    private(set) var tail: Node?
    private(set) var count = 0

    /// Puts `node` (which is in no list) at the front.
    mutating func pushFront(_ node: Node) {
        node.newer = nil
        node.older = head
        head?.newer = node
        head = node
        if tail == nil { tail = node }
        count += 1
    }

    /// Takes `node` (which is in this list) out of it.
    mutating func remove(_ node: Node) {
        if let newer = node.newer { newer.older = node.older } else { head = node.older }
        if let older = node.older { older.newer = node.newer } else { tail = node.newer }
        node.newer = nil
        node.older = nil
        count -= 1
    }

    /// Moves `node` (which is in this list) to the front.
    mutating func moveToFront(_ node: Node) {
        guard head !== node else { return }
        remove(node)
        pushFront(node)
    }
}
