import Foundation
import NapkinHTTP
@_spi(Napkin) import NapkinSupport
import napkin

#if canImport(Glibc)
import Glibc
#endif

/// Talks HTTP/1.1 to a real server on a localhost socket, one connection
/// per request. Socket I/O runs on its own threads, never on Swift's
/// cooperative pool, so the server under test (in the same process) always
/// has threads to answer with.
public struct LiveTransport: TestTransport {
    let host: String
    let port: Int

    /// A transport to `host:port`.
    public init(host: String = "127.0.0.1", port: Int) {
        self.host = host
        self.port = port
    }

    /// Sends `request` over a new connection and reads the response; a
    /// chunked body (an event stream) stays a stream, read as it arrives.
    public func send(_ request: Request) async throws -> Response {
        let bytes = encode(request)
        let connection = try await SocketConnection.open(host: host, port: port)
        connection.write(bytes)
        var reader = ResponseReader(chunks: connection.chunks)
        let head = try await reader.readHead()
        let body: ResponseBody
        if request.method == .head || head.status == 204 || head.status == 304 {
            connection.close()
            body = .bytes([])
        } else if head.headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            body = .stream(ResponseReader.chunkedBody(of: reader, closing: connection))
        } else if let length = head.headers["Content-Length"].flatMap(Int.init) {
            body = .bytes(try await reader.readBytes(count: length))
            connection.close()
        } else {
            body = .bytes(try await reader.readToEnd())
            connection.close()
        }
        return Response(status: HTTPStatus(code: head.status), headers: head.headers, body: body)
    }

    private func encode(_ request: Request) -> [UInt8] {
        var target = request.rawPath.isEmpty ? request.path : request.rawPath
        if !request.query.isEmpty {
            target += "?" + request.query.map { "\(Self.percentEncode($0.key))=\(Self.percentEncode($0.value))" }.joined(separator: "&")
        }
        var head = "\(request.method.rawValue) \(target) HTTP/1.1\r\n"
        var headers = request.headers
        if headers["Host"] == nil { headers["Host"] = "\(host):\(port)" }
        headers["Connection"] = "close"
        if !request.body.isEmpty || request.method == .post || request.method == .put {
            headers["Content-Length"] = String(request.body.count)
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + request.body
    }

    static func percentEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// One client socket; a dedicated thread reads it into `chunks`.
///
/// The descriptor is closed only once both the reading thread has ended and
/// the connection is released: closed any earlier, its number could be
/// given to the next connection while this thread still reads it, and the
/// thread would take that connection's response.
final class SocketConnection: Sendable {
    let fd: Int32
    let chunks: AsyncThrowingStream<[UInt8], any Error>
    private let descriptor: SharedDescriptor

    private init(fd: Int32, chunks: AsyncThrowingStream<[UInt8], any Error>, descriptor: SharedDescriptor) {
        self.fd = fd
        self.chunks = chunks
        self.descriptor = descriptor
    }

    /// How long connecting, and each send, may block.
    static let sendTimeoutSeconds = 10

    static func open(host: String, port: Int) async throws -> SocketConnection {
        // Connecting blocks: on a thread of its own, not the pool's.
        let connected = Promise<Result<Int32, any Error>>()
        Thread.detachNewThread {
            connected.resolve(Result { try connect(host: host, port: port) })
        }
        let fd = try await connected.value().get()
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let descriptor = SharedDescriptor(fd)
        let connection = SocketConnection(fd: fd, chunks: stream, descriptor: descriptor)
        continuation.onTermination = { _ in connection.close() }
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                // A signal handled elsewhere in the process interrupts the
                // read; the connection is still there.
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                continuation.yield(Array(buffer[0..<count]))
            }
            continuation.finish()
            descriptor.release()
        }
        return connection
    }

    private static func connect(host: String, port: Int) throws -> Int32 {
        // Close-on-exec: a process the tests start must not hold it open.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPError(.serviceUnavailable, "socket() failed") }
        // Bounds connecting and each send: a server that accepts nothing or
        // reads nothing fails the request instead of blocking its thread.
        // (Reads have no such bound: an event stream may idle; the client's
        // deadlines bound them.)
        var limit = timeval(tv_sec: Int(sendTimeoutSeconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let reason = errno == EINPROGRESS || errno == EAGAIN ? "no answer within \(sendTimeoutSeconds) s" : "errno \(errno)"
            Glibc.close(fd)
            throw HTTPError(.serviceUnavailable, "cannot connect to \(host):\(port) (\(reason))")
        }
        return fd
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Shuts the socket down, which also ends the reading thread.
    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        descriptor.release()
    }
}

/// A socket descriptor with two holders, the connection and its reading
/// thread; the last to let go closes it.
private final class SharedDescriptor: Sendable {
    private let fd: Int32
    private let holders = Locked(2)

    init(_ fd: Int32) {
        self.fd = fd
    }

    func release() {
        let last = holders.withLock { holders -> Bool in
            holders -= 1
            return holders == 0
        }
        if last { Glibc.close(fd) }
    }
}
