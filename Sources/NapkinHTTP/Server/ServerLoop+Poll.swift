#if !os(Linux) || NAPKIN_PORTABLE_LOOP
import CMicroHTTPD
import Foundation
@_spi(Napkin) import NapkinSupport

extension ServerLoop {
    /// This build's loops `poll` the descriptors libmicrohttpd lists: the portable loop.
    static var backend: Backend { .poll }

    /// What a loop waits on: its wakeup, each descriptor its daemon waits
    /// on, and the sockets of its hang-up watch, listed afresh every turn
    /// (connections come and go, and each waits to read or to write as its
    /// request goes).
    struct DaemonWatch {
        private let daemon: OpaquePointer
        private let connectionLimit: UInt32
        private let hangUps: HangUpWatch
        /// The wakeup first, then room for every descriptor the daemon can
        /// list, then the hang-up watch's sockets.
        private var entries: [pollfd]
        /// How many daemon descriptors the last wait listed; -1 when it could not.
        private var listed: Int32 = 0
        /// How many of the watch's sockets the last wait polled.
        private var watched = 0

        init(daemon: OpaquePointer, connectionLimit: Int, wakeup: Wakeup, hangUps: HangUpWatch) {
            self.daemon = daemon
            self.connectionLimit = UInt32(clamping: connectionLimit)
            self.hangUps = hangUps
            entries = Array(repeating: pollfd(fd: -1, events: 0, revents: 0), count: 1 + Int(napkin_poll_fds_capacity()))
            entries[0] = pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)
        }

        /// Waits up to `milliseconds` (-1: for ever); `true` when the wakeup is readable.
        mutating func wait(milliseconds: Int32) -> Bool {
            let (daemon, limit, hangUps) = (self.daemon, connectionLimit, self.hangUps)
            let room = 1 + Int(napkin_poll_fds_capacity()) + hangUps.count
            if entries.count < room {
                entries += repeatElement(pollfd(fd: -1, events: 0, revents: 0), count: room - entries.count)
            }
            let (listed, watched) = entries.withUnsafeMutableBufferPointer { entries in
                let listed = napkin_daemon_poll_fds(daemon, limit, entries.baseAddress! + 1, napkin_poll_fds_capacity())
                let watched = hangUps.sockets(into: entries.baseAddress! + 1 + Int(max(listed, 0)))
                // When libmicrohttpd cannot list its descriptors (it never
                // should), look again soon rather than sleep past its work.
                let timeout = listed >= 0 ? milliseconds : (milliseconds < 0 ? 10 : min(milliseconds, 10))
                entries[0].revents = 0
                _ = poll(entries.baseAddress!, nfds_t(1 + Int(max(listed, 0)) + watched), timeout)
                return (listed, watched)
            }
            self.listed = listed
            self.watched = watched
            return entries[0].revents != 0
        }

        /// Ends the streams whose client the last wait found gone.
        func endDepartedStreams() {
            let first = 1 + Int(max(listed, 0))
            for entry in entries[first..<(first + watched)] where entry.revents != 0 { hangUps.check(entry) }
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
