@_spi(Napkin) import NapkinSupport
import Foundation
import Synchronization

/// A raw HTTP/1.1 client over a blocking TCP socket, for tests that need to see
/// exactly what goes over the wire (keep-alive, chunks, HEAD, half-read streams).
/// Its read buffer is behind a Mutex; use it from one thread at a time.
final class TestConnection: Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    struct Reply: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        func headerValues(_ name: String) -> [String] { headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1) }
    }

    let fd: Int32
    let timeoutSeconds: Int
    private let buffer = Locked<[UInt8]>([])

    init(port: Int, timeoutSeconds: Int = 15) throws {
        // Connected before `self` is whole: a failed connect closes its own
        // socket here, and no deinit closes the number again (by then it may
        // be someone else's descriptor, such as one of the server's).
        fd = try Self.connect(port: port, timeoutSeconds: timeoutSeconds)
        self.timeoutSeconds = timeoutSeconds
    }

    private static func connect(port: Int, timeoutSeconds: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        // Every connect, send and recv is bounded: a lost reply fails the test.
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let e = errno
            Glibc.close(fd)
            throw Failure(description: e == EINPROGRESS || e == EAGAIN ? "no connection within \(timeoutSeconds) s" : "connect: errno \(e)")
        }
        return fd
    }

    deinit { Glibc.close(fd) }

    /// Closes the socket now (the client "goes away").
    func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Ends the sending side only: the client has said all it will, and
    /// still reads the answer.
    func halfClose() { shutdown(fd, Int32(SHUT_WR)) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let error = errno
                if error == EAGAIN || error == EWOULDBLOCK { throw Failure(description: "the server read nothing within \(timeoutSeconds) s") }
                throw Failure(description: "send failed: errno \(error)")
            }
            sent += n
        }
    }

    /// Sends a request with `Host` and (for a body) `Content-Length`; keeps the connection open.
    func request(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> Reply {
        try sendRequest(method, target, headers: headers, body: body)
        return try readReply(head: method == "HEAD")
    }

    func sendRequest(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        try send(Array(text.utf8) + body)
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        // A signal handled elsewhere in the process (SIGCHLD from a test that
        // runs a tool) interrupts a blocking call: that is not an answer.
        var n: Int
        repeat {
            n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        } while n < 0 && errno == EINTR
        if n < 0 {
            let error = errno
            if error == EAGAIN || error == EWOULDBLOCK { throw Failure(description: "no data from the server within \(timeoutSeconds) s") }
            throw Failure(description: "recv failed: errno \(error)")
        }
        if n == 0 { return false }
        buffer.withLock { $0.append(contentsOf: chunk[0..<n]) }
        return true
    }

    private func readLine() throws -> String {
        while true {
            let line = buffer.withLock { b -> String? in
                guard let i = b.firstIndex(of: 0x0A) else { return nil }
                var lineBytes = Array(b[..<i])
                if lineBytes.last == 0x0D { lineBytes.removeLast() }
                b.removeFirst(i + 1)
                return String(decoding: lineBytes, as: UTF8.self)
            }
            if let line { return line }
            guard try fill() else { throw Failure(description: "connection closed mid-line") }
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.withLock({ $0.count }) < count {
            guard try fill() else { throw Failure(description: "connection closed mid-body") }
        }
        return buffer.withLock { b in
            let out = Array(b[..<count])
            b.removeFirst(count)
            return out
        }
    }

    /// Reads status line and headers.
    func readHead() throws -> Reply {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure(description: "bad status line: \(statusLine)") }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        return Reply(status: status, headers: headers, body: [])
    }

    /// Reads one chunk of a chunked body; nil at the terminating chunk.
    func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else { throw Failure(description: "bad chunk size: \(sizeLine)") }
        if size == 0 {
            _ = try readLine()
            return nil
        }
        let data = try readExactly(size)
        _ = try readLine()
        return data
    }

    /// Reads a whole response.
    func readReply(head: Bool = false) throws -> Reply {
        var reply = try readHead()
        if head || reply.status == 304 || reply.status == 204 { return reply }
        if reply.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk() { reply.body += chunk }
        } else if let length = reply.header("Content-Length").flatMap(Int.init) {
            reply.body = try readExactly(length)
        } else {
            while try fill() {}
            reply.body = buffer.withLock { b in defer { b = [] }; return b }
        }
        return reply
    }

    /// Whether the server hung up without a byte of reply (EOF or a reset),
    /// rather than answering. Throws if it does neither within the timeout,
    /// so a server that silently ignores the connection does not count as a refusal.
    func hungUpWithoutReply() throws -> Bool {
        if buffer.withLock({ !$0.isEmpty }) { return false }
        var byte: UInt8 = 0
        var n: Int
        repeat { n = recv(fd, &byte, 1, 0) } while n < 0 && errno == EINTR
        if n > 0 { return false }
        if n == 0 { return true }
        let error = errno
        if error == ECONNRESET { return true }
        if error == EAGAIN || error == EWOULDBLOCK {
            throw Failure(description: "the server neither answered nor hung up within \(timeoutSeconds) s")
        }
        throw Failure(description: "recv failed: errno \(error)")
    }

    /// Whether the server has closed the connection by now, without
    /// waiting (the connection has nothing else to read).
    func isClosedNow() -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }

    /// Whether the server has closed the connection (reads EOF).
    func readsEOF() throws -> Bool {
        if buffer.withLock({ !$0.isEmpty }) { return false }
        return try !fill()
    }
}

/// Runs blocking socket work on a thread of its own, so that tests never block
/// the Swift concurrency pool the server's handlers need.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
