import NapkinHTTP

/// Parses an HTTP/1.1 response from a socket's chunks: the head, then a
/// body by length, to the end, or chunked (as a stream).
struct ResponseReader {
    private var iterator: AsyncThrowingStream<[UInt8], any Error>.Iterator
    private var buffer: [UInt8] = []

    init(chunks: AsyncThrowingStream<[UInt8], any Error>) {
        iterator = chunks.makeAsyncIterator()
    }

    struct Head {
        let status: Int
        let headers: HTTPHeaders
    }

    private mutating func fill() async throws -> Bool {
        guard let chunk = try await iterator.next() else { return false }
        buffer += chunk
        return true
    }

    mutating func readHead() async throws -> Head {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let text = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                var lines = text.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw HTTPError(.badGateway, "malformed status line")
                }
                var headers: HTTPHeaders = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingWhitespace())
                }
                return Head(status: status, headers: headers)
            }
            guard try await fill() else { throw HTTPError(.badGateway, "connection closed before the response head") }
        }
    }

    mutating func readBytes(count: Int) async throws -> [UInt8] {
        while buffer.count < count {
            guard try await fill() else { break }
        }
        let bytes = Array(buffer.prefix(count))
        buffer.removeFirst(bytes.count)
        return bytes
    }

    mutating func readToEnd() async throws -> [UInt8] {
        while try await fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Decodes the chunked body as it arrives.
    static func chunkedBody(
        of reader: sending ResponseReader, closing connection: SocketConnection
    ) -> AsyncThrowingStream<[UInt8], any Error> {
        var reader = reader
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let task = Task {
            do {
                while let chunk = try await reader.nextChunk() {
                    continuation.yield(chunk)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
            connection.close()
        }
        continuation.onTermination = { _ in
            task.cancel()
            connection.close()
        }
        return stream
    }

    private mutating func nextChunk() async throws -> [UInt8]? {
        while find([13, 10]) == nil {
            guard try await fill() else { return nil }
        }
        let lineEnd = find([13, 10])!
        let sizeText = String(decoding: buffer[0..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
        buffer.removeFirst(lineEnd + 2)
        guard let size = Int(sizeText.trimmingWhitespace(), radix: 16) else {
            throw HTTPError(.badGateway, "malformed chunk size")
        }
        if size == 0 { return nil }
        while buffer.count < size + 2 {
            guard try await fill() else { throw HTTPError(.badGateway, "connection closed inside a chunk") }
        }
        let chunk = Array(buffer[0..<size])
        buffer.removeFirst(size + 2)
        return chunk
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for index in 0...(buffer.count - pattern.count) where buffer[index] == pattern[0] {
            if Array(buffer[index..<index + pattern.count]) == pattern { return index }
        }
        return nil
    }
}
