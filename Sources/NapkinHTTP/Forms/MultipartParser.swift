import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An incremental `multipart/form-data` parser (RFC 7578 over RFC 2046): it
/// takes the body in whatever pieces the network delivers and reports each
/// part's head, its content as runs of bytes, and its end, holding at most a
/// delimiter's length of content and one part head in memory.
///
/// Boundaries may be split anywhere across pieces; a preamble and an epilogue
/// are ignored; transport padding (spaces, tabs) after a boundary is allowed.
/// A body that ends before its closing boundary is an error at ``finish()``.
public struct MultipartParser: Sendable {
    /// Something the parser found, reported in order.
    public enum Event {
        /// A part begins, with its parsed head.
        case begin(MultipartPartHead)
        /// Content of the current part; valid only during the call.
        case content(UnsafeRawBufferPointer)
        /// The current part ended.
        case end
    }

    /// Why a body is not well-formed multipart.
    public struct Malformed: Error, Sendable, Equatable {
        /// A short, client-safe reason.
        public let reason: String
    }

    private enum Phase {
        /// Before the first boundary: bytes are ignored.
        case preamble
        /// Just after a boundary: padding, then `CRLF` (a part) or `--` (the end).
        case afterBoundary
        /// Reading a part head, up to its blank line.
        case head
        /// Reading a part's content, up to the next delimiter.
        case content
        /// After the closing boundary: bytes are ignored.
        case done
    }

    /// `CRLF--boundary`: what ends a part's content.
    private let delimiter: [UInt8]
    /// The most bytes of one part head.
    public let maxHeadBytes: Int
    private var phase = Phase.preamble
    /// Bytes seen but not yet consumed: a possible start of the delimiter, or a head in progress.
    private var pending: [UInt8]

    /// A parser for the `boundary` parameter of the body's `Content-Type`.
    /// Throws when the boundary is empty or longer than RFC 2046's 70 bytes.
    public init(boundary: String, maxHeadBytes: Int = 8 * 1024) throws(Malformed) {
        let bytes = Array(boundary.utf8)
        guard !bytes.isEmpty, bytes.count <= 70, !bytes.contains(13), !bytes.contains(10) else {
            throw Malformed(reason: "bad multipart boundary")
        }
        delimiter = Array("\r\n--".utf8) + bytes
        self.maxHeadBytes = maxHeadBytes
        // The first boundary may open the body without a line break before it.
        pending = [13, 10]
    }

    /// The boundary parameter of a `multipart/form-data` content type, or nil
    /// when the type is another or has none.
    public static func boundary(ofContentType value: String) -> String? {
        var parameters = value.split(separator: ";").map { $0.trimmingSpaces }
        guard let type = parameters.first, type.lowercased() == "multipart/form-data" else { return nil }
        parameters.removeFirst()
        for parameter in parameters {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            guard parameter[..<equals].trimmingSpaces.lowercased() == "boundary" else { continue }
            var boundary = parameter[parameter.index(after: equals)...].trimmingSpaces
            if boundary.count >= 2, boundary.first == "\"", boundary.last == "\"" {
                boundary = boundary.dropFirst().dropLast()
            }
            return boundary.isEmpty ? nil : String(boundary)
        }
        return nil
    }

    /// Whether the closing boundary has been read.
    public var isComplete: Bool {
        if case .done = phase { return true }
        return false
    }

    /// Parses the next piece of the body, reporting what it completes to `sink`.
    /// Throws ``Malformed`` for a body that is not multipart, and what
    /// `sink` throws as it is.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, to sink: (Event) throws -> Void) throws {
        if case .done = phase { return }
        guard !pending.isEmpty else {
            // Nothing held over: the piece is parsed where it lies, and only
            // what it leaves unconsumed is copied.
            let used = try parse(bytes, to: sink)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[used...]))
            return
        }
        var held: [UInt8] = []
        swap(&held, &pending)
        held.append(contentsOf: bytes)
        let used = try held.withUnsafeBytes { try parse($0, to: sink) }
        held.removeFirst(used)
        swap(&held, &pending)
    }

    /// Parses `bytes` as far as it can; answers how many it consumed.
    private mutating func parse(_ bytes: UnsafeRawBufferPointer, to sink: (Event) throws -> Void) throws -> Int {
        var start = 0
        while true {
            switch phase {
            case .done:
                return bytes.count
            case .preamble, .content:
                let isContent: Bool = if case .content = phase { true } else { false }
                let search = Self.find(delimiter, in: bytes, from: start)
                let safeEnd = search.found ?? search.partialStart
                if isContent, safeEnd > start {
                    try sink(.content(UnsafeRawBufferPointer(rebasing: bytes[start..<safeEnd])))
                }
                guard let found = search.found else { return safeEnd }
                if isContent { try sink(.end) }
                start = found + delimiter.count
                phase = .afterBoundary
            case .afterBoundary:
                while start < bytes.count, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
                guard bytes.count - start >= 2 else {
                    if bytes.count - start > 0, bytes[start] != 13, bytes[start] != 45 {
                        throw Malformed(reason: "bad bytes after a multipart boundary")
                    }
                    return start
                }
                if bytes[start] == 45, bytes[start + 1] == 45 {
                    phase = .done
                } else if bytes[start] == 13, bytes[start + 1] == 10 {
                    start += 2
                    phase = .head
                } else {
                    throw Malformed(reason: "bad bytes after a multipart boundary")
                }
            case .head:
                guard let end = Self.headEnd(in: bytes, from: start) else {
                    if bytes.count - start > maxHeadBytes {
                        throw Malformed(reason: "a multipart part head is longer than \(maxHeadBytes) bytes")
                    }
                    return start
                }
                guard end.headEnd - start <= maxHeadBytes else {
                    throw Malformed(reason: "a multipart part head is longer than \(maxHeadBytes) bytes")
                }
                let head = try MultipartPartHead(parsing: ArraySlice(bytes[start..<end.headEnd]))
                try sink(.begin(head))
                // The delimiter includes the CRLF before it: an empty part's
                // content ends where it starts.
                start = end.contentStart
                phase = .content
            }
        }
    }

    /// Ends the body: throws when its closing boundary never came.
    public func finish() throws(Malformed) {
        guard isComplete else { throw Malformed(reason: "the multipart body ends before its closing boundary") }
    }

    /// Where `delimiter` occurs in `bytes` from `start`, or where a suffix
    /// that could be its beginning starts (`bytes.count` when none).
    static func find(_ delimiter: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> (found: Int?, partialStart: Int) {
        let count = bytes.count
        guard let base = bytes.baseAddress, start < count else { return (nil, count) }
        let hit = delimiter.withUnsafeBytes { napkin_memmem(base + start, count - start, $0.baseAddress, $0.count) }
        if let hit {
            let at = base.distance(to: UnsafeRawPointer(hit))
            return (at, at)
        }
        // No whole delimiter: only the last bytes can begin one.
        var i = max(start, count - delimiter.count + 1)
        while i < count {
            guard let cr = memchr(base + i, 13, count - i) else { return (nil, count) }
            i = base.distance(to: UnsafeRawPointer(cr))
            if memcmp(base + i, delimiter, count - i) == 0 { return (nil, i) }
            i += 1
        }
        return (nil, count)
    }

    /// The end of a part head (its blank line) in `bytes` from `start`: where
    /// its fields end and its content begins.
    static func headEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> (headEnd: Int, contentStart: Int)? {
        let count = bytes.count
        // A part with no header fields: the blank line comes first.
        if count - start >= 2, bytes[start] == 13, bytes[start + 1] == 10 { return (start, start + 2) }
        var i = start
        while i + 3 < count {
            if bytes[i] == 13, bytes[i + 1] == 10, bytes[i + 2] == 13, bytes[i + 3] == 10 { return (i, i + 4) }
            i += 1
        }
        return nil
    }
}
