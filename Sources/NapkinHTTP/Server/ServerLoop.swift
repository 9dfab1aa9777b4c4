import CMicroHTTPD
import Foundation
@_spi(Napkin) import NapkinSupport
import Synchronization

/// One libmicrohttpd daemon and the thread that runs it: napkin's own event
/// loop around libmicrohttpd's epoll set.
///
/// The thread waits on the daemon's epoll descriptor and on an `eventfd` of
/// its own, then lets libmicrohttpd do whatever is ready (`MHD_run`, which
/// never blocks). Driving the daemon from outside, instead of with
/// libmicrohttpd's internal threads, is what makes epoll usable: the internal
/// epoll loop of libmicrohttpd 0.9.75 can go back to sleep with ready
/// connections unserved when exactly 128 became ready at once.
///
/// A connection resumed from another thread (a handler's response, a
/// stream's next event) must be followed by ``wake()``: libmicrohttpd does not
/// wake a loop it does not run itself. Wake-ups are coalesced: a burst of ten
/// thousand resumes costs one `eventfd` write per turn of the loop.
final class ServerLoop: Sendable, LoopWaking {
    private struct Control {
        var quiesce: [CheckedContinuation<Int32, Never>] = []
        var stop: CheckedContinuation<Void, Never>?
        var stopped = false
    }

    let daemon: UInt
    private let wakeDescriptor: Int32
    private let wakePending = Atomic<Bool>(false)
    private let control = Locked(Control())
    let jobs = Locked(LoopJobs())
    /// The server's connections waiting for a head; the loop enforces their deadline.
    private let heads: [HeadDeadlines]

    /// Starts the loop's thread for `daemon` (an `MHD_Daemon` started for
    /// external epoll), woken through `wakeDescriptor` (from
    /// ``makeWakeDescriptor()``), which the loop then owns; it shuts down
    /// connections past the head deadline of `heads`.
    init(daemon: OpaquePointer, wakeDescriptor: Int32, heads: [HeadDeadlines] = []) {
        self.daemon = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(daemon)))
        self.wakeDescriptor = wakeDescriptor
        self.heads = heads
        let thread = Thread { [self] in run() }
        thread.name = "napkin-http"
        thread.start()
    }

    /// Closed only when nothing can wake the loop any more: requests and
    /// streams hold their loop, so a late wake never writes to a number the
    /// process has since given to another file.
    deinit {
        close(wakeDescriptor)
    }

    /// A descriptor for a loop to be woken through.
    static func makeWakeDescriptor() throws -> Int32 {
        let descriptor = napkin_wake_descriptor()
        guard descriptor >= 0 else {
            throw HTTPServerError("cannot create a server loop's wake-up descriptor: \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    var daemonPointer: OpaquePointer { OpaquePointer(bitPattern: daemon)! }

    /// The loop whose thread is running the caller, if any: libmicrohttpd's
    /// callbacks use it to know which loop to wake for their connection.
    static var current: ServerLoop? {
        pthread_getspecific(currentKey).map { Unmanaged<ServerLoop>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Makes the loop look at its daemon again soon: after resuming one of
    /// its connections, or to take a request from ``quiesce()`` or ``stop()``.
    func wake() {
        guard !wakePending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    /// Stops accepting connections (on the loop's thread, where the daemon
    /// runs) and returns the listening socket, or -1.
    func quiesce() async -> Int32 {
        await withCheckedContinuation { (c: CheckedContinuation<Int32, Never>) in
            let stopped = control.withLock { control -> Bool in
                if !control.stopped { control.quiesce.append(c) }
                return control.stopped
            }
            if stopped { c.resume(returning: -1) } else { wake() }
        }
    }

    /// Ends the loop's thread; afterwards the daemon may be stopped.
    func stop() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let stopped = control.withLock { control -> Bool in
                if !control.stopped { control.stop = c }
                return control.stopped
            }
            if stopped { c.resume() } else { wake() }
        }
    }

    private func run() {
        pthread_setspecific(ServerLoop.currentKey, Unmanaged.passUnretained(self).toOpaque())
        let daemon = daemonPointer
        var descriptors = [
            pollfd(fd: napkin_daemon_epoll_fd(daemon), events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var nextHeadDeadline: Int32 = -1
        while true {
            _ = poll(&descriptors, 2, ServerLoop.sooner(napkin_daemon_wait_ms(daemon), nextHeadDeadline))
            if descriptors[1].revents != 0 {
                var count: UInt64 = 0
                _ = read(wakeDescriptor, &count, 8)
            }
            // Cleared before the run: a resume that lands during it wakes the next turn.
            wakePending.store(false, ordering: .sequentiallyConsistent)
            MHD_run(daemon)
            nextHeadDeadline = heads.reduce(-1) { ServerLoop.sooner($0, $1.expire()) }
            runJobs()
            if handleRequests(daemon) { break }
        }
        closeJobs()
    }

    /// The shorter of two waits in milliseconds, where -1 is for ever.
    private static func sooner(_ a: Int32, _ b: Int32) -> Int32 {
        a < 0 || b < 0 ? max(a, b) : min(a, b)
    }

    /// Answers quiesce requests; `true` when the loop is to end.
    private func handleRequests(_ daemon: OpaquePointer) -> Bool {
        let (quiesce, stop) = control.withLock { control in
            defer {
                control.quiesce = []
                if control.stop != nil { control.stopped = true; control.stop = nil }
            }
            return (control.quiesce, control.stop)
        }
        if !quiesce.isEmpty {
            let listener = Int32(napkin_quiesce(daemon))
            for (index, waiter) in quiesce.enumerated() { waiter.resume(returning: index == 0 ? listener : -1) }
        }
        stop?.resume()
        return stop != nil
    }

    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
