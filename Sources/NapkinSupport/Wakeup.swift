#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// How any thread wakes a thread of napkin's that blocks in `poll` (a server
/// loop, a Redis connection's worker, the bus subscriber, the log writer):
/// a descriptor that becomes readable on ``wake()`` (SPI, like ``Locked``).
///
/// An `eventfd` on Linux; a non-blocking pipe elsewhere, and in a build with
/// `NAPKIN_PORTABLE_LOOP`. Wakes coalesce: only the first ``wake()`` after the
/// sleeper's last turn writes, the rest cost an atomic exchange, so a burst
/// of ten thousand costs one write. The sleeper polls ``descriptor`` among
/// its own, calls ``consume(readable:)`` after every wait, and only then
/// looks at what it may have been woken for; ``wait(timeout:)`` does both
/// for a thread that waits on nothing else.
@_spi(Napkin) public final class Wakeup: Sendable {
    /// What the descriptor is.
    public enum Backend: Sendable, CustomStringConvertible {
        /// Linux's `eventfd`: one descriptor, a counter.
        case eventfd
        /// A pipe: two descriptors, a byte a wake.
        case pipe

        /// The backend of this build: `eventfd` on Linux unless the portable loop is forced.
        public static var preferred: Backend {
            #if os(Linux) && !NAPKIN_PORTABLE_LOOP
            .eventfd
            #else
            .pipe
            #endif
        }

        /// The backends this platform has.
        public static var available: [Backend] {
            Wakeup.eventfdCall() == nil ? [.pipe] : [.eventfd, .pipe]
        }

        public var description: String {
            switch self {
            case .eventfd: "eventfd"
            case .pipe: "pipe"
            }
        }
    }

    /// Why a wakeup could not be made (the process is out of descriptors, say).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Which kind of descriptor this is.
    public let backend: Backend
    /// What the sleeping thread polls for `POLLIN`.
    public let descriptor: Int32
    @usableFromInline let writeEnd: Int32
    @usableFromInline let pending = Atomic<Bool>(false)

    /// A wakeup on `backend`; throws when the descriptor cannot be made.
    public init(backend: Backend = .preferred) throws(Failure) {
        self.backend = backend
        switch backend {
        case .eventfd:
            guard let eventfd = Wakeup.eventfdCall() else { throw Failure(description: "napkin: this C library has no eventfd") }
            // EFD_NONBLOCK and EFD_CLOEXEC are O_NONBLOCK and O_CLOEXEC.
            let descriptor = eventfd(0, Int32(O_NONBLOCK | O_CLOEXEC))
            guard descriptor >= 0 else { throw Wakeup.failure("an eventfd") }
            self.descriptor = descriptor
            writeEnd = descriptor
        case .pipe:
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw Wakeup.failure("a pipe") }
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
            descriptor = ends[0]
            writeEnd = ends[1]
        }
    }

    /// A wakeup of this build's backend, for a thread whose owner has no
    /// error to report: traps when the process is out of descriptors.
    public static func make() -> Wakeup {
        do {
            return try Wakeup()
        } catch {
            fatalError(error.description)
        }
    }

    /// Closed only when nothing can wake it any more, so a late wake never
    /// writes to a number the process has since given to another file.
    deinit {
        close(descriptor)
        if writeEnd != descriptor { close(writeEnd) }
    }

    /// Makes the sleeper's next (or current) wait return. Any thread; inlined,
    /// because a server loop is woken for every connection it resumes.
    @inlinable
    public func wake() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        signal()
    }

    @usableFromInline
    func signal() {
        switch backend {
        case .eventfd:
            var one: UInt64 = 1
            while write(writeEnd, &one, 8) < 0 && errno == EINTR {}
        case .pipe:
            // A full pipe is already readable: nothing is lost.
            var byte: UInt8 = 1
            while write(writeEnd, &byte, 1) < 0 && errno == EINTR {}
        }
    }

    /// Called by the sleeper after each wait, before it looks at its work:
    /// empties the descriptor when the wait found it `readable`, and lets the
    /// next ``wake()`` write again. A wake that lands after this call makes
    /// the next wait return.
    public func consume(readable: Bool) {
        if readable { drain() }
        pending.store(false, ordering: .sequentiallyConsistent)
    }

    /// Blocks until woken or until `timeout` has passed (for ever when
    /// `nil`), then consumes the wake; `true` when woken. It may return
    /// early on a signal, so callers look at their work either way.
    @discardableResult
    public func wait(timeout: Duration? = nil) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let woken = poll(&entry, 1, Wakeup.milliseconds(timeout)) > 0 && entry.revents != 0
        consume(readable: woken)
        return woken
    }

    /// `timeout` as `poll` takes it: whole milliseconds rounded up, -1 for ever.
    public static func milliseconds(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return -1 }
        guard timeout > .zero else { return 0 }
        let (seconds, attoseconds) = timeout.components
        let whole = seconds.multipliedReportingOverflow(by: 1000)
        guard !whole.overflow else { return Int32.max }
        return Int32(clamping: whole.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    private func drain() {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            while true {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count < 0 && errno == EINTR { continue }
                // An eventfd is emptied by one read of its counter; a pipe, once a read comes back short.
                if count < buffer.count || backend == .eventfd { return }
            }
        }
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "napkin: cannot create \(what) to wake a thread: \(String(cString: strerror(errno)))")
    }

    /// glibc's `eventfd(2)`, which Swift's Glibc module does not export;
    /// `nil` where the C library has none.
    fileprivate static func eventfdCall() -> (@convention(c) (UInt32, Int32) -> Int32)? {
        #if os(Linux)
        // A null handle is RTLD_DEFAULT: the process's global symbols.
        guard let symbol = dlsym(nil, "eventfd") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UInt32, Int32) -> Int32).self)
        #else
        return nil
        #endif
    }
}
