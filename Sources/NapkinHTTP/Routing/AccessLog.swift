
/// Writes one line per request: method, path, status, body bytes and
/// duration, and the request's id when it gives requests ids.
///
/// The path is logged as it was sent (still percent-encoded), with control
/// characters, backslashes and non-ASCII bytes escaped as `\xNN` and long
/// paths cut short, so a request can never write a second line or terminal
/// escapes into the log.
///
/// By default lines go to standard error through a batching ``LogWriter``:
/// the request pays for building its line, not for writing it.
///
/// With ``RequestIDs``, each request gets an id (``Request/id``), taken
/// from a trusted proxy's `X-Request-ID` or made; the response carries it
/// back, and the line ends with it. An `X-Request-ID` it replaced is
/// replaced for the handlers too. An answer from ``StaticFiles`` is logged
/// with its id but sent without it: each file's answer stays one answer,
/// built once and shared by every request for it (Phoenix serves static
/// files ahead of its request-id plug for the same reason).
///
/// In the ``Format/json`` format each line is one JSON object with the same
/// fields (`method`, `path`, `status`, `bytes`, `micros`, `request_id`):
/// the method and path are escaped as above first, then as JSON strings.
///
/// Put it first (outermost) so it also times the other middleware and sees the
/// status that error mapping chose. Streamed bodies log `-` for bytes.
public struct AccessLog: Middleware {
    /// How a line is written.
    public enum Format: Sendable {
        /// `GET /path 200 1234 56µs [request-id]`.
        case text
        /// One JSON object per line.
        case json
    }

    private let sink: (@Sendable (String) -> Void)?
    private let writer: LogWriter?
    private let format: Format
    private let requestIDs: RequestIDs?

    /// An access log handing each line to `sink`.
    public init(sink: @escaping @Sendable (String) -> Void, format: Format = .text, requestIDs: RequestIDs? = nil) {
        self.sink = sink
        writer = nil
        self.format = format
        self.requestIDs = requestIDs
    }

    /// An access log whose lines `writer` writes in batches (default: the
    /// process's standard error); each text line is formatted straight
    /// into the writer's buffer, with no string built per request.
    public init(writer: LogWriter = .standardError, format: Format = .text, requestIDs: RequestIDs? = nil) {
        sink = nil
        self.writer = writer
        self.format = format
        self.requestIDs = requestIDs
    }

    /// What a line needs of its request, kept until the answer is known
    /// (instead of the whole request).
    private struct Line: Sendable {
        let method: String
        let rawPath: String
        let id: String?
        let start: UInt64
    }

    /// Passes the request on and logs its line once the response (or the
    /// error, with the status it becomes: an ``HTTPError``'s own, else
    /// `500`) is known, whatever kind of answer it is.
    public func answer(_ request: Request, next: @escaping NextResponder) -> Answer {
        var request = request
        if let requestIDs {
            let id = requestIDs.id(for: request)
            request.id = id
            // A replaced id must not reach handlers; a request without one
            // keeps its headers as they are (no copy per request).
            if let sent = request.headers[RequestIDs.header], sent != id { request.headers[RequestIDs.header] = id }
        }
        let line = Line(method: request.method.rawValue, rawPath: request.rawPath, id: request.id, start: request.arrival)
        let answer = next(request)
        // An answer at hand is finished now, with no closure to allocate.
        if case .immediate(let outcome) = answer { return .immediate(finish(outcome, line)) }
        return answer.finished { outcome in finish(outcome, line) }
    }

    /// Logs `outcome`'s line; a response gets the request's id, unless it
    /// is a static file's.
    private func finish(_ outcome: Result<Response, any Error>, _ line: Line) -> Result<Response, any Error> {
        switch outcome {
        case .success(let response):
            log(line, status: response.status.code, bytes: response.byteCount)
            guard let id = line.id, !response.isStaticFile else { return outcome }
            var stamped = response
            stamped.headers[RequestIDs.header] = id
            stamped.isForOneRequest = true
            return .success(stamped)
        case .failure(let error as HTTPError):
            log(line, status: error.status.code, bytes: error.message.utf8.count)
        case .failure:
            log(line, status: 500, bytes: nil)
        }
        return outcome
    }

    /// `bytes` nil (a streamed body, or none known) is logged as `-`.
    private func log(_ entry: Line, status: Int, bytes: Int?) {
        let micros = Int((MonotonicNanoseconds.now() &- entry.start) / 1000)
        if format == .json {
            let line = AccessLog.jsonLine(entry, status: status, bytes: bytes, micros: micros)
            if let writer { writer.write(line) } else { sink?(line) }
            return
        }
        // An id is made here or checked to be plain (see `RequestIDs`).
        let suffix = entry.id.map { " " + $0 } ?? ""
        guard let writer else {
            sink?("\(AccessLog.escape(entry.method)) \(AccessLog.escape(entry.rawPath)) \(status) \(bytes.map(String.init) ?? "-") \(micros)µs\(suffix)")
            return
        }
        var method = entry.method, path = entry.rawPath, id = suffix
        method.withUTF8 { method in
            path.withUTF8 { path in
                id.withUTF8 { id in
                    guard AccessLog.isPlain(method), AccessLog.isPlain(path) else {
                        writer.append { line in
                            line.append(contentsOf: AccessLog.escape(entry.method).utf8)
                            line.append(0x20)
                            line.append(contentsOf: AccessLog.escape(entry.rawPath).utf8)
                            AccessLog.appendNumbers(status: status, bytes: bytes, micros: micros, to: &line)
                            line.append(contentsOf: id)
                        }
                        return
                    }
                    // The usual line, built on the stack and copied into the
                    // writer's buffer at once: the lock is held for one copy.
                    let capacity = method.count + path.count + 2 + AccessLog.numbersCapacity + id.count
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { line in
                        var end = AccessLog.put(method, at: 0, in: line)
                        line[end] = 0x20
                        end = AccessLog.put(path, at: end + 1, in: line)
                        end = AccessLog.putNumbers(status: status, bytes: bytes, micros: micros, at: end, in: line)
                        end = AccessLog.put(id, at: end, in: line)
                        writer.append(UnsafeBufferPointer(rebasing: line[..<end]))
                    }
                }
            }
        }
    }

    /// One JSON object: method and path escaped as in a text line (so
    /// they are printable ASCII, and bounded), then as JSON strings.
    private static func jsonLine(_ entry: Line, status: Int, bytes: Int?, micros: Int) -> String {
        var line = "{\"method\":" + jsonString(escape(entry.method))
        line += ",\"path\":" + jsonString(escape(entry.rawPath))
        line += ",\"status\":\(status),\"bytes\":\(bytes.map(String.init) ?? "null"),\"micros\":\(micros)"
        if let id = entry.id { line += ",\"request_id\":" + jsonString(id) }
        return line + "}"
    }

    /// `text` (already escaped: printable ASCII and `…`) as a JSON string.
    static func jsonString(_ text: String) -> String {
        "\"" + text.escaping(["\"": "\\\"", "\\": "\\\\"]) + "\""
    }

    /// Whether `text` goes into a line as it is: short, printable ASCII, no `\`.
    private static func isPlain(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.count <= maxLoggedPath && text.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C }
    }

    /// The most bytes ``putNumbers(status:bytes:micros:at:in:)`` writes:
    /// three spaces, three decimal `Int`s (or `-`) and `µs`.
    private static let numbersCapacity = 3 + 3 * 20 + 3

    /// ` <status> <bytes or -> <micros>µs`, appended.
    private static func appendNumbers(status: Int, bytes: Int?, micros: Int, to line: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: numbersCapacity) { buffer in
            let end = putNumbers(status: status, bytes: bytes, micros: micros, at: 0, in: buffer)
            line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<end]))
        }
    }

    /// Writes ` <status> <bytes or -> <micros>µs` at `start`; returns the end.
    private static func putNumbers(status: Int, bytes: Int?, micros: Int, at start: Int, in line: UnsafeMutableBufferPointer<UInt8>) -> Int {
        line[start] = 0x20
        var end = putDecimal(status, at: start + 1, in: line)
        line[end] = 0x20
        if let bytes {
            end = putDecimal(bytes, at: end + 1, in: line)
        } else {
            line[end + 1] = UInt8(ascii: "-")
            end += 2
        }
        line[end] = 0x20
        end = putDecimal(micros, at: end + 1, in: line)
        line[end] = 0xC2; line[end + 1] = 0xB5; line[end + 2] = 0x73  // µs
        return end + 3
    }

    private static func put(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, in line: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress, let target = line.baseAddress else { return start }
        (target + start).update(from: base, count: bytes.count)
        return start + bytes.count
    }

    /// Writes `value` in decimal at `start` (at most 20 bytes); returns the end.
    private static func putDecimal(_ value: Int, at start: Int, in line: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var magnitude = value.magnitude
        var end = start
        if value < 0 {
            line[end] = UInt8(ascii: "-")
            end += 1
        }
        var digits = 1
        var probe = magnitude
        while probe >= 10 { probe /= 10; digits += 1 }
        end += digits
        var index = end
        repeat {
            index -= 1
            line[index] = UInt8(0x30 + magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return end
    }

    /// `value` in decimal, appended.
    static func appendDecimal(_ value: Int, to line: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            let end = putDecimal(value, at: 0, in: buffer)
            line.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<end]))
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
