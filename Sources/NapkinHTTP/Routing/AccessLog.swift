import Foundation

/// Writes one line per request: method, path, status, body bytes and duration.
///
/// The path is logged as it was sent (still percent-encoded), with control
/// characters, backslashes and non-ASCII bytes escaped as `\xNN` and long
/// paths cut short, so a request can never write a second line or terminal
/// escapes into the log.
///
/// By default lines go to standard error through a batching ``LogWriter``:
/// the request pays for building its line, not for writing it.
///
/// Put it first (outermost) so it also times the other middleware and sees the
/// status that error mapping chose. Streamed bodies log `-` for bytes.
public struct AccessLog: FastPathMiddleware {
    private let sink: (@Sendable (String) -> Void)?
    private let writer: LogWriter?

    /// An access log handing each line to `sink`.
    public init(sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
        writer = nil
    }

    /// An access log whose lines `writer` writes in batches (default: the
    /// process's standard error); each line is formatted straight into the
    /// writer's buffer, with no string built per request.
    public init(writer: LogWriter = .standardError) {
        sink = nil
        self.writer = writer
    }

    public func respond(to request: Request, next: HTTPHandler) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request)
            log(request, status: response.status.code, bytes: response.byteCount, start: start)
            return response
        } catch let error as HTTPError {
            log(request, status: error.status.code, bytes: error.message.utf8.count, start: start)
            throw error
        } catch {
            log(request, status: 500, bytes: nil, start: start)
            throw error
        }
    }

    public func finish(_ request: Request, _ response: Response, startedAt start: ContinuousClock.Instant) -> Response {
        log(request, status: response.status.code, bytes: response.byteCount, start: start)
        return response
    }

    /// `bytes` nil (a streamed body, or none known) is logged as `-`.
    private func log(_ request: Request, status: Int, bytes: Int?, start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        if let writer {
            writer.append { line in
                AccessLog.appendEscaped(request.method.rawValue, to: &line)
                line.append(0x20)
                AccessLog.appendEscaped(request.rawPath, to: &line)
                line.append(0x20)
                AccessLog.appendDecimal(status, to: &line)
                line.append(0x20)
                if let bytes { AccessLog.appendDecimal(bytes, to: &line) } else { line.append(UInt8(ascii: "-")) }
                line.append(0x20)
                AccessLog.appendDecimal(Int(micros), to: &line)
                line.append(contentsOf: [0xC2, 0xB5, 0x73])  // µs
            }
        } else {
            sink?("\(AccessLog.escape(request.method.rawValue)) \(AccessLog.escape(request.rawPath)) \(status) \(bytes.map(String.init) ?? "-") \(micros)µs")
        }
    }

    /// ``escape(_:)``'s bytes, appended.
    static func appendEscaped(_ text: String, to line: inout [UInt8]) {
        let utf8 = text.utf8
        if utf8.count <= maxLoggedPath, utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C }) {
            line.append(contentsOf: utf8)
        } else {
            line.append(contentsOf: escape(text).utf8)
        }
    }

    static func appendDecimal(_ value: Int, to line: inout [UInt8]) {
        guard value > 0 else {
            if value == 0 { line.append(0x30) } else { line.append(contentsOf: String(value).utf8) }
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[19 - count] = UInt8(0x30 + rest % 10)
                rest /= 10
                count += 1
            }
            line.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// The most bytes of a path written to the log.
    static let maxLoggedPath = 1024

    /// `text` safe for one log line: printable ASCII is kept, every other
    /// byte (and `\`) becomes `\xNN`; past ``maxLoggedPath`` bytes it ends with `…`.
    static func escape(_ text: String) -> String {
        let utf8 = text.utf8
        if utf8.count <= maxLoggedPath, utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C }) { return text }
        var out: [UInt8] = []
        out.reserveCapacity(min(utf8.count, maxLoggedPath) + 16)
        let hex = Array("0123456789abcdef".utf8)
        for (index, byte) in utf8.enumerated() {
            if index == maxLoggedPath {
                out += Array("…".utf8)
                break
            }
            if byte >= 0x20, byte < 0x7F, byte != 0x5C {
                out.append(byte)
            } else {
                out += [0x5C, UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Queues a line for standard error: ``LogWriter/standardError`` writes
    /// the lines in batches from its own thread (at least every 100 ms, and
    /// at exit), so a request never waits on the write.
    public static let standardError: @Sendable (String) -> Void = { line in
        LogWriter.standardError.write(line)
    }

    /// Writes out every line queued for standard error (call it before
    /// `exit`-less shutdowns, such as `_exit` or `abort`).
    public static func flushStandardError() {
        LogWriter.standardError.flush()
    }
}
