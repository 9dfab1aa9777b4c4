import Dispatch

/// Tells whether the caller runs on the main queue, which is the main
/// actor's executor.
///
/// `Thread.isMainThread` cannot tell: on Linux, once the main thread parks in
/// `dispatchMain()`, main-actor jobs run on a dispatch worker thread. A
/// queue-specific value travels with the queue, whatever thread drains it.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}
