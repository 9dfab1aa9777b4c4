import CMicroHTTPD
import Foundation
@_spi(Napkin) import NapkinSupport
import Synchronization

/// One libmicrohttpd daemon and the thread that runs it: napkin's own event
/// loop around libmicrohttpd.
///
/// The thread waits on the daemon's descriptors (its epoll set on Linux, or
/// each of them through `poll` in the portable loop: see ``Backend``) and on
/// a ``Wakeup`` of its own, then lets libmicrohttpd do whatever is ready
/// (`MHD_run`, or `MHD_run_from_select` on what `poll` found; neither
/// blocks). Driving the daemon from outside, instead of with libmicrohttpd's
/// internal threads, is what makes epoll usable: the internal epoll loop of
/// libmicrohttpd 0.9.75 can go back to sleep with ready connections
/// unserved when exactly 128 became ready at once.
///
/// A connection resumed from another thread (a handler's response, a
/// stream's next event) must be followed by ``wake()``: libmicrohttpd does not
/// wake a loop it does not run itself. Wake-ups are coalesced (see ``Wakeup``).
///
/// libmicrohttpd does not watch a suspended connection either, so the loop
/// also waits on its ``HangUpWatch``: a streamed body's client that closes
/// its connection while the body sleeps ends the stream on the next turn.
final class ServerLoop: Sendable, LoopWaking {
    /// How a loop waits on its daemon, chosen when napkin is compiled
    /// (`ServerLoop+Epoll.swift`, `ServerLoop+Poll.swift`).
    enum Backend: String, Sendable {
        /// libmicrohttpd's epoll set, one descriptor for every connection: Linux.
        case epoll
        /// `poll` over the descriptors libmicrohttpd lists each turn: other
        /// platforms, and Linux built with `-Xswiftc -DNAPKIN_PORTABLE_LOOP`.
        /// libmicrohttpd lists them as `select` sets, so it serves a
        /// connection only while its descriptor is below `FD_SETSIZE` (1024).
        case poll
    }

    private struct Control {
        var quiesce: [Promise<Int32>] = []
        var stop: Promise<Void>?
        var stopped = false
    }

    let daemon: UInt
    private let wakeup: Wakeup
    /// Connections the daemon may hold (its share of the server's).
    private let connectionLimit: Int
    private let control = Locked(Control())
    /// Set once `control` has something for the loop: a turn with nothing
    /// asked reads this flag instead of taking the lock.
    private let controlAsked = Atomic<Bool>(false)
    let jobs = Locked(LoopJobs())
    /// Set once `jobs` has a job: a turn with none reads this flag instead of taking the lock.
    let jobsQueued = Atomic<Bool>(false)
    /// The server's connections waiting for a head; the loop enforces their deadline.
    private let heads: [HeadDeadlines]
    /// The sockets of the loop's sleeping streamed bodies, watched for their client leaving.
    let hangUps = HangUpWatch()
    /// Turns the loop has made: a loop that spins shows here (tests count them).
    let turns = Atomic<Int>(0)

    /// Starts the loop's thread for `daemon` (an `MHD_Daemon` started for
    /// ``backend``, allowed `connectionLimit` connections), woken
    /// through `wakeup` (from ``makeWakeup()``); it shuts down connections
    /// past the head deadline of `heads`.
    init(daemon: OpaquePointer, connectionLimit: Int, wakeup: Wakeup, heads: [HeadDeadlines] = []) {
        self.daemon = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(daemon)))
        self.connectionLimit = connectionLimit
        self.wakeup = wakeup
        self.heads = heads
        let thread = Thread { [self] in run() }
        thread.name = "napkin-http"
        thread.start()
    }

    /// A wakeup for a loop, or the reason there is none.
    static func makeWakeup() throws -> Wakeup {
        do {
            return try Wakeup()
        } catch {
            throw HTTPServerError("cannot create a server loop's wakeup: \(error)")
        }
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
        wakeup.wake()
    }

    /// Stops accepting connections (on the loop's thread, where the daemon
    /// runs) and returns the listening socket, or -1.
    func quiesce() async -> Int32 {
        let listener = Promise<Int32>()
        let stopped = control.withLock { control -> Bool in
            if !control.stopped { control.quiesce.append(listener) }
            return control.stopped
        }
        if stopped { return -1 }
        controlAsked.store(true, ordering: .releasing)
        wake()
        return await listener.value()
    }

    /// Ends the loop's thread; afterwards the daemon may be stopped.
    func stop() async {
        let ended = Promise<Void>()
        let stopped = control.withLock { control -> Bool in
            if !control.stopped { control.stop = ended }
            return control.stopped
        }
        if stopped { return }
        controlAsked.store(true, ordering: .releasing)
        wake()
        await ended.value()
    }

    private func run() {
        pthread_setspecific(ServerLoop.currentKey, Unmanaged.passUnretained(self).toOpaque())
        let daemon = daemonPointer
        var watch = DaemonWatch(daemon: daemon, connectionLimit: connectionLimit, wakeup: wakeup, hangUps: hangUps)
        var nextHeadDeadline: Int32 = -1
        while true {
            let woken = watch.wait(milliseconds: ServerLoop.sooner(napkin_daemon_wait_ms(daemon), nextHeadDeadline))
            turns.add(1, ordering: .relaxed)
            // Consumed before the run: a resume that lands during it wakes the next turn.
            wakeup.consume(readable: woken)
            // Before the run, which then closes the connections of the streams ended here.
            watch.endDepartedStreams()
            watch.run()
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
        guard controlAsked.load(ordering: .relaxed), controlAsked.exchange(false, ordering: .acquiringAndReleasing) else { return false }
        let (quiesce, stop) = control.withLock { control in
            defer {
                control.quiesce = []
                if control.stop != nil { control.stopped = true; control.stop = nil }
            }
            return (control.quiesce, control.stop)
        }
        if !quiesce.isEmpty {
            let listener = Int32(napkin_quiesce(daemon))
            for (index, waiter) in quiesce.enumerated() { waiter.resolve(index == 0 ? listener : -1) }
        }
        stop?.resolve(())
        return stop != nil
    }

    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
