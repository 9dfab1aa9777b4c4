#if os(Linux) && !NAPKIN_PORTABLE_LOOP
import CMicroHTTPD
import Foundation
@_spi(Napkin) import NapkinSupport

extension ServerLoop {
    /// This build's loops wait on libmicrohttpd's epoll set.
    static var backend: Backend { .epoll }

    /// What a loop waits on: its daemon's epoll descriptor, readable when
    /// `MHD_run` has work, its wakeup, and its hang-up watch's epoll set,
    /// readable when a sleeping stream's client has left.
    struct DaemonWatch {
        private let daemon: OpaquePointer
        private let hangUps: HangUpWatch
        private var descriptors: [pollfd]

        /// The limit is not needed here: libmicrohttpd takes the listening
        /// socket out of its epoll set itself while the daemon is full.
        init(daemon: OpaquePointer, connectionLimit _: Int, wakeup: Wakeup, hangUps: HangUpWatch) {
            self.daemon = daemon
            self.hangUps = hangUps
            descriptors = [
                pollfd(fd: napkin_daemon_epoll_fd(daemon), events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: hangUps.descriptor, events: Int16(POLLIN), revents: 0),
            ]
        }

        /// Waits up to `milliseconds` (-1: for ever); `true` when the wakeup is readable.
        mutating func wait(milliseconds: Int32) -> Bool {
            _ = poll(&descriptors, 3, milliseconds)
            return descriptors[1].revents != 0
        }

        /// Ends the streams whose client the last wait found gone.
        func endDepartedStreams() {
            if descriptors[2].revents != 0 { hangUps.takeDepartures() }
        }

        /// Lets libmicrohttpd do whatever is ready (it asks its epoll set itself).
        func run() {
            MHD_run(daemon)
        }
    }
}
#endif
