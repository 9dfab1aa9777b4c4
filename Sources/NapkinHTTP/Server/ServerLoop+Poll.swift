#if !os(Linux) || NAPKIN_PORTABLE_LOOP
import CMicroHTTPD
import Foundation
@_spi(Napkin) import NapkinSupport

extension ServerLoop {
    /// This build's loops `poll` the descriptors libmicrohttpd lists: the portable loop.
    static var backend: Backend { .poll }

    /// What a loop waits on: its wakeup, and each descriptor its daemon
    /// waits on, listed afresh every turn (connections come and go, and each
    /// waits to read or to write as its request goes).
    struct DaemonWatch {
        private let daemon: OpaquePointer
        private let connectionLimit: UInt32
        /// The wakeup first, then room for every descriptor the daemon can list.
        private var entries: [pollfd]
        /// How many daemon descriptors the last wait listed; -1 when it could not.
        private var listed: Int32 = 0

        init(daemon: OpaquePointer, connectionLimit: Int, wakeup: Wakeup) {
            self.daemon = daemon
            self.connectionLimit = UInt32(clamping: connectionLimit)
            entries = Array(repeating: pollfd(fd: -1, events: 0, revents: 0), count: 1 + Int(napkin_poll_fds_capacity()))
            entries[0] = pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)
        }

        /// Waits up to `milliseconds` (-1: for ever); `true` when the wakeup is readable.
        mutating func wait(milliseconds: Int32) -> Bool {
            let (daemon, limit) = (self.daemon, connectionLimit)
            let listed = entries.withUnsafeMutableBufferPointer { entries in
                let listed = napkin_daemon_poll_fds(daemon, limit, entries.baseAddress! + 1, Int32(entries.count - 1))
                // When libmicrohttpd cannot list its descriptors (it never
                // should), look again soon rather than sleep past its work.
                let timeout = listed >= 0 ? milliseconds : (milliseconds < 0 ? 10 : min(milliseconds, 10))
                entries[0].revents = 0
                _ = poll(entries.baseAddress!, nfds_t(1 + max(listed, 0)), timeout)
                return listed
            }
            self.listed = listed
            return entries[0].revents != 0
        }

        /// Lets libmicrohttpd do whatever the last wait found ready.
        func run() {
            guard listed >= 0 else {
                MHD_run(daemon)
                return
            }
            entries.withUnsafeBufferPointer { entries in
                napkin_daemon_run_polled(daemon, entries.baseAddress! + 1, listed)
            }
        }
    }
}
#endif
