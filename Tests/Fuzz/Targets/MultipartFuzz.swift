// fuzz-max-len: 4096
@testable import NapkinHTTP

/// The incremental multipart parser, on bytes from the network in pieces of
/// any size. Two properties per input:
/// - parts written by a sender (contents without the delimiter, as RFC 2046
///   requires a sender to choose) read back exactly as written, with their
///   names and file names, however the body is cut into pieces;
/// - the raw input as a body never traps, and its events are well formed:
///   content only inside a part, every part that begins ends before the
///   next, and a body that parses to its end has every part closed.
/// Input: its first byte seeds the piece sizes; the rest, split at NUL, is
/// the parts' contents (odd ones are files).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    guard let seed = bytes.first else { return 0 }
    let pieces = [1, 2, 3, 5, 7, 11, 64, 4096].map { max(1, ($0 &* Int(seed)) % 97 + $0 % 4) }
    let boundary = "napkinFuzz\(seed)"
    let delimiter = Array("\r\n--\(boundary)".utf8)
    let contents = Array(bytes.dropFirst()).split(separator: 0, maxSplits: 16, omittingEmptySubsequences: false).map(Array.init)

    if !contents.contains(where: { contains($0, delimiter) }) {
        var body: [UInt8] = Array("preamble".utf8)
        var expected: [(MultipartPartHead, [UInt8])] = []
        for (index, content) in contents.enumerated() {
            let head = MultipartPartHead(
                name: "f\(index)", fileName: index % 2 == 1 ? "file \(index).bin" : nil,
                contentType: index % 2 == 1 ? "application/octet-stream" : "text/plain")
            var text = "\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"\(head.name)\""
            if let fileName = head.fileName { text += "; filename=\"\(fileName)\"\r\nContent-Type: \(head.contentType)" }
            body += Array((text + "\r\n\r\n").utf8) + content
            expected.append((head, content))
        }
        body += Array("\r\n--\(boundary)--\r\nepilogue".utf8)
        let read = parse(body, boundary: boundary, pieces: pieces)
        guard case .success(let parts) = read else {
            fatalError("a well-formed body of \(contents.count) parts is refused: \(read)")
        }
        require(parts.count == expected.count, "\(expected.count) parts read back as \(parts.count)")
        for ((head, content), (readHead, readContent)) in zip(expected, parts) {
            require(head == readHead, "part head \(head) reads back as \(readHead)")
            require(content == readContent, "part \(head.name) of \(content.count) bytes reads back as \(readContent.count) bytes")
        }
    }

    // The raw input as a body: no trap, events in order.
    _ = parse(Array(bytes.dropFirst()), boundary: "b", pieces: pieces)
    return 0
}

/// The parts of `body`, fed in pieces of the given sizes (cycled), or the
/// parser's refusal; checks the order of events as it goes.
private func parse(_ body: [UInt8], boundary: String, pieces: [Int]) -> Result<[(MultipartPartHead, [UInt8])], MultipartParser.Malformed> {
    var parser: MultipartParser
    do { parser = try MultipartParser(boundary: boundary, maxHeadBytes: 512) } catch { return .failure(error) }
    var parts: [(MultipartPartHead, [UInt8])] = []
    var open = false
    var offset = 0
    var turn = 0
    do {
        while offset < body.count {
            let size = min(pieces[turn % pieces.count], body.count - offset)
            turn += 1
            try body[offset..<offset + size].withUnsafeBytes { piece in
                try parser.feed(piece) { event in
                    switch event {
                    case .begin(let head):
                        require(!open, "a part begins before the last one ended")
                        open = true
                        parts.append((head, []))
                    case .content(let bytes):
                        require(open, "content outside a part")
                        parts[parts.count - 1].1.append(contentsOf: bytes)
                    case .end:
                        require(open, "a part ends that never began")
                        open = false
                    }
                }
            }
            offset += size
        }
        try parser.finish()
    } catch let error as MultipartParser.Malformed {
        return .failure(error)
    } catch {
        fatalError("the parser threw \(error)")
    }
    require(!open, "a body parsed to its end with a part still open")
    return .success(parts)
}

private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
        return true
    }
    return false
}
