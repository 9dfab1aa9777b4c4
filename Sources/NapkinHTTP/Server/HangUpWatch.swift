import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The streamed responses of one ``ServerLoop``, watched for their client
/// leaving while the body sleeps.
///
/// libmicrohttpd does not watch a connection it has suspended, and a
/// ``BodyPump`` suspends its connection whenever its channel is empty: a
/// client that closed such a connection would be noticed only when a
/// heartbeat failed to write. So a pump puts its socket here the first time
/// it sleeps, and takes it out when libmicrohttpd completes the connection
/// (before the socket is closed, so a reused descriptor number never
/// misfires). The loop waits on the watch beside its daemon; when a client
/// has gone, it cancels the pump's channel, which tells the app (the
/// channel's termination handlers) and wakes a sleeping pump, whose
/// connection libmicrohttpd then closes.
///
/// A client that shuts down only its sending side (a half-close) counts as
/// gone. A connection suspended while its handler runs is not watched: its
/// client's leaving shows when the answer is sent.
///
/// The epoll loop also watches uploads while their body arrives
/// (``addUpload(socket:)``): libmicrohttpd 0.9.75 on epoll takes a short
/// read as its socket drained, so a client's end that came with the last
/// bytes it read goes unseen, and the connection and its temporary files
/// would stay until the idle timeout. When the watch reports such a client
/// and nothing is left unread (a peek), its socket is shut down, which
/// libmicrohttpd sees and closes the connection; while bytes are still
/// unread, the socket is reported again on the next turn, after
/// libmicrohttpd has read them. The portable loop needs none of this:
/// `poll` reports the end however it came.
///
/// Loop-thread only, with no lock: pumps come from libmicrohttpd's content
/// reader and go from its completed callback, both inside `MHD_run` on the
/// loop's thread, which looks for departures between runs. At shutdown the
/// completed callbacks come from `MHD_stop_daemon`, after the thread ended.
final class HangUpWatch: Sendable {
    private enum Watcher {
        /// A streamed body, told at once that its client left.
        case stream(BodyPump)
        /// An upload still arriving, shut down once its client sent its last byte.
        case upload
    }

    private struct Watched {
        let watcher: Watcher
        /// What the portable loop polls the socket for (the epoll loop only
        /// asks whether it is 0); 0 once the watch has reported the client
        /// gone, or stopped watching it.
        var events: Int16
    }

    /// The epoll set of the sockets (see `napkin_hangup_watch_create`): one
    /// registration per stream, kept from its first sleep to its end, so a
    /// stream's events cost no system call. -1 in the portable loop, which
    /// polls the sockets itself (``sockets(into:)``).
    let descriptor: Int32
    /// Every watched stream and upload, by its socket.
    nonisolated(unsafe) private var streams: [Int32: Watched] = [:]

    init() {
        descriptor = ServerLoop.backend == .epoll ? napkin_hangup_watch_create() : -1
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Watches `socket`, `pump`'s connection, until ``remove(socket:)``;
    /// `false` when it cannot (the pump then learns of a departed client
    /// only from a failed write).
    func add(_ pump: BodyPump, socket: Int32) -> Bool {
        guard socket >= 0 else { return false }
        if ServerLoop.backend == .epoll {
            guard descriptor >= 0, napkin_hangup_watch_add(descriptor, socket) == 0 else { return false }
        }
        streams[socket] = Watched(watcher: .stream(pump), events: Int16(POLLIN) | napkin_poll_rdhup())
        return true
    }

    /// Watches `socket`, a connection whose multipart body is arriving,
    /// until ``remove(socket:)`` (its body complete, or the connection
    /// done); `false` when it cannot, or need not (the portable loop).
    func addUpload(socket: Int32) -> Bool {
        guard ServerLoop.backend == .epoll, descriptor >= 0, socket >= 0, streams[socket] == nil,
              napkin_hangup_watch_add(descriptor, socket) == 0 else { return false }
        streams[socket] = Watched(watcher: .upload, events: Int16(POLLIN) | napkin_poll_rdhup())
        return true
    }

    /// Stops watching `socket`: its connection is complete.
    func remove(socket: Int32) {
        guard streams.removeValue(forKey: socket) != nil else { return }
        if descriptor >= 0 { napkin_hangup_watch_remove(descriptor, socket) }
    }

    /// The epoll loop: ends the stream of every client the set reports
    /// gone, and the upload of every one that sent its last byte; an upload
    /// with bytes still unread is armed again once the set is emptied, so
    /// this turn does not find it again.
    func takeDepartures() {
        var unread: [Int32] = []
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 64) { found in
            var count = 64
            while count == 64 {
                count = Int(napkin_hangup_watch_take(descriptor, found.baseAddress, 64))
                for socket in found[..<count] where !left(socket) { unread.append(socket) }
            }
        }
        for socket in unread { _ = napkin_hangup_watch_arm(descriptor, socket, 1) }
    }

    /// How many sockets ``sockets(into:)`` may list.
    var count: Int { streams.count }

    /// The portable loop: writes a `pollfd` for each socket still watched
    /// (room for ``count``) and returns how many.
    func sockets(into entries: UnsafeMutablePointer<pollfd>) -> Int {
        var listed = 0
        for (socket, stream) in streams where stream.events != 0 {
            entries[listed] = pollfd(fd: socket, events: stream.events, revents: 0)
            listed += 1
        }
        return listed
    }

    /// The portable loop: what `poll` found on a listed socket. Readable
    /// means bytes or the end: a peek tells which. A client that sends bytes
    /// is watched from then on only for a half-close (Linux), or not at all
    /// where `poll` has no flag for it, so its bytes do not make the loop
    /// spin (a heartbeat still finds it gone).
    func check(_ found: pollfd) {
        let rdhup = napkin_poll_rdhup()
        guard found.revents != 0, streams[found.fd] != nil else { return }
        if found.revents & (Int16(POLLHUP) | Int16(POLLERR) | rdhup) != 0 {
            left(found.fd)
            return
        }
        guard found.revents & Int16(POLLIN) != 0 else {
            streams[found.fd]?.events = 0
            return
        }
        var byte: UInt8 = 0
        let peeked = recv(found.fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if peeked > 0 {
            streams[found.fd]?.events = rdhup
        } else if peeked == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            left(found.fd)
        }
    }

    /// The client of `socket` is gone: its stream ends, once. An upload's
    /// client is gone once nothing it sent is left unread; `false` while
    /// something is.
    @discardableResult
    private func left(_ socket: Int32) -> Bool {
        guard let watched = streams[socket], watched.events != 0 else { return true }
        switch watched.watcher {
        case .stream(let pump):
            streams[socket]?.events = 0
            pump.clientLeft()
        case .upload:
            var byte: UInt8 = 0
            let peeked = recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
            if peeked > 0 || (peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) { return false }
            streams[socket]?.events = 0
            _ = shutdown(socket, Int32(SHUT_RDWR))
        }
        return true
    }
}
