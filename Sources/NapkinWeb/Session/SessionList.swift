/// Sessions in most-recently-used order: a doubly linked list threaded
/// through the sessions themselves, so moving one to the front, removing
/// one and finding the least recently used are O(1) at any count.
@MainActor
struct SessionList {
    private(set) var head: WebSession?
    private(set) var tail: WebSession?
    private(set) var count = 0

    /// Puts `session` (which is in no list) at the front.
    mutating func pushFront(_ session: WebSession) {
        session.newer = nil
        session.older = head
        head?.newer = session
        head = session
        if tail == nil { tail = session }
        count += 1
    }

    /// Takes `session` (which is in this list) out of it.
    mutating func remove(_ session: WebSession) {
        if let newer = session.newer { newer.older = session.older } else { head = session.older }
        if let older = session.older { older.newer = session.newer } else { tail = session.newer }
        session.newer = nil
        session.older = nil
        count -= 1
    }

    /// Moves `session` (which is in this list) to the front.
    mutating func moveToFront(_ session: WebSession) {
        guard head !== session else { return }
        remove(session)
        pushFront(session)
    }
}
