import Foundation

/// One `shared { }` slot of a component: the instance once made, guarded by
/// its own lock so that a factory only blocks callers of the *same* key.
///
/// A factory may read another `shared` property of the same component: that
/// takes a different cell's lock, so there is no deadlock (only a cycle of
/// factories, which is a programming error, could wait on itself).
final class SharedInstanceCell: @unchecked Sendable {
    // `lock` guards `instance`.
    private let lock = NSLock()
    private var instance: Any?

    func value<T>(_ factory: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        if let existing = instance as? T {
            return existing
        }
        let made = factory()
        instance = made
        return made
    }
}
