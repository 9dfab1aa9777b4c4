import Testing
@testable import NapkinHTTP

/// A part as parsed: its head and all its content.
struct ParsedPart: Equatable {
    var head: MultipartPartHead
    var content: [UInt8]
}

/// Parses `body` in pieces of the given sizes (cycled), as the network would deliver it.
func parseMultipart(_ body: [UInt8], boundary: String, pieces: [Int] = [Int.max], maxHeadBytes: Int = 8 * 1024) throws -> [ParsedPart] {
    var parser = try MultipartParser(boundary: boundary, maxHeadBytes: maxHeadBytes)
    var parts: [ParsedPart] = []
    var offset = 0
    var turn = 0
    while offset < body.count {
        let size = min(max(1, pieces[turn % pieces.count]), body.count - offset)
        turn += 1
        try body[offset..<offset + size].withUnsafeBytes { piece in
            try parser.feed(piece) { event in
                switch event {
                case .begin(let head): parts.append(ParsedPart(head: head, content: []))
                case .content(let bytes): parts[parts.count - 1].content.append(contentsOf: bytes)
                case .end: break
                }
            }
        }
        offset += size
    }
    try parser.finish()
    return parts
}

@Suite(.timeLimit(.minutes(1))) struct MultipartParserTests {
    static let body = Array(
        ("preamble to ignore\r\n--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a b.png\"\r\nContent-Type: Image/PNG; x=1\r\n\r\n"
            + "\u{89}PNG\r\n--Xy\r\n\r\n--XyZ-- \r\nepilogue").utf8)

    @Test func readsFieldsAndFiles() throws {
        let parts = try parseMultipart(Self.body, boundary: "XyZ")
        #expect(parts.count == 2)
        #expect(parts[0] == ParsedPart(head: MultipartPartHead(name: "title"), content: Array("Hello".utf8)))
        #expect(parts[1].head == MultipartPartHead(name: "photo", fileName: "a b.png", contentType: "image/png"))
        // A CRLF and a near-boundary inside content are content.
        #expect(parts[1].content == Array("\u{89}PNG\r\n--Xy\r\n".utf8))
    }

    @Test func boundariesSplitAcrossEveryRead() throws {
        let whole = try parseMultipart(Self.body, boundary: "XyZ")
        for size in 1...12 {
            #expect(try parseMultipart(Self.body, boundary: "XyZ", pieces: [size]) == whole, "pieces of \(size)")
        }
        #expect(try parseMultipart(Self.body, boundary: "XyZ", pieces: [1, 7, 2, 30, 3]) == whole)
    }

    @Test func bodyOpeningWithTheBoundaryAndEmptyParts() throws {
        let body = Array("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\r\n--b\r\n\r\n\r\n--b--".utf8)
        // The second part has no head at all: it has no name, so it is malformed.
        #expect(throws: MultipartParser.Malformed.self) { try parseMultipart(body, boundary: "b") }
        let empty = Array("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\r\n--b--\r\n".utf8)
        #expect(try parseMultipart(empty, boundary: "b") == [ParsedPart(head: MultipartPartHead(name: "a"), content: [])])
    }

    @Test func crlfEdgeCases() throws {
        // Content that is only line breaks, or ends with CR or with CRLF-dash.
        for content in ["\r\n", "\r", "\n\r", "x\r\n-", "\r\n--", "\r\n--c", "--b"] {
            let body = Array("--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n\(content)\r\n--b--".utf8)
            for size in 1...4 {
                let parts = try parseMultipart(body, boundary: "b", pieces: [size])
                #expect(parts.map(\.content) == [Array(content.utf8)], "content \(Array(content.utf8)) in pieces of \(size)")
            }
        }
        // The delimiter inside content ends it: what follows must be a boundary's end.
        #expect(throws: MultipartParser.Malformed.self) {
            try parseMultipart(Array("--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n\r\n--b-\r\n--b--".utf8), boundary: "b")
        }
        // After a boundary only padding, then CRLF or `--`.
        #expect(throws: MultipartParser.Malformed.self) {
            try parseMultipart(Array("--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx\r\n--bX\r\n--b--".utf8), boundary: "b")
        }
    }

    @Test func missingFinalBoundaryIsAnError() {
        for body in ["--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx", "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx\r\n--b", "", "no boundary at all"] {
            #expect(throws: MultipartParser.Malformed.self, "\(body)") { try parseMultipart(Array(body.utf8), boundary: "b") }
        }
    }

    @Test func hugePartHeadIsRefusedWithoutWaitingForItsEnd() throws {
        var parser = try MultipartParser(boundary: "b", maxHeadBytes: 1024)
        let head = Array("--b\r\nContent-Disposition: form-data; name=\"f\"\r\nX-Pad: ".utf8)
        try head.withUnsafeBytes { try parser.feed($0) { _ in } }
        let pad = [UInt8](repeating: UInt8(ascii: "a"), count: 600)
        try pad.withUnsafeBytes { try parser.feed($0) { _ in } }
        #expect(throws: MultipartParser.Malformed.self) { try pad.withUnsafeBytes { try parser.feed($0) { _ in } } }
    }

    @Test func tenThousandTinyParts() throws {
        var body: [UInt8] = []
        for i in 0..<10_000 {
            body += Array("--t\r\nContent-Disposition: form-data; name=\"f\(i)\"\r\n\r\n\(i % 10)\r\n".utf8)
        }
        body += Array("--t--\r\n".utf8)
        let parts = try parseMultipart(body, boundary: "t", pieces: [8192, 1, 333])
        #expect(parts.count == 10_000)
        #expect(parts[9_999] == ParsedPart(head: MultipartPartHead(name: "f9999"), content: [UInt8(ascii: "9")]))
    }

    /// The delimiter search against the plainest one, over bytes full of
    /// near misses (the delimiter's first and last bytes, its prefixes) and
    /// at every offset, so each of its vector lanes and its tail are tried.
    @Test func delimiterSearchFindsTheFirstWholeDelimiter() {
        var generator = SystemRandomNumberGenerator()
        for needle in [Array("\r\n--x".utf8), Array("\r\n--a1".utf8), Array("\r\n--------------------------4a1f".utf8)] {
            let alphabet: [UInt8] = [13, 10, 45, needle.last!, 0x41]
            for length in [0, 1, needle.count - 1, needle.count, 17, 40, 100, 300] {
                for _ in 0..<200 {
                    var bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
                    if length >= needle.count, Bool.random(using: &generator) {
                        let at = Int.random(in: 0...(length - needle.count), using: &generator)
                        bytes.replaceSubrange(at..<(at + needle.count), with: needle)
                    }
                    let start = length == 0 ? 0 : Int.random(in: 0..<length, using: &generator)
                    let expected = length < needle.count ? nil : (start...max(start, length - needle.count)).first { at in
                        at + needle.count <= length && Array(bytes[at..<(at + needle.count)]) == needle
                    }
                    let found = bytes.withUnsafeBytes { MultipartParser.find(needle, in: $0, from: start).found }
                    #expect(found == expected, "\(bytes) from \(start)")
                }
            }
        }
    }

    @Test func fileNamesAreKeptAsSentInTheHead() throws {
        let body = Array("--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"../../etc/passwd\\u0000.png\"\r\n\r\nx\r\n--b--".utf8)
        let parts = try parseMultipart(body, boundary: "b")
        #expect(parts[0].head.fileName == "../../etc/passwdu0000.png")
        let nul = Array("--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\u{0}b/../c.png\"\r\n\r\nx\r\n--b--".utf8)
        #expect(try parseMultipart(nul, boundary: "b")[0].head.fileName == "a\u{0}b/../c.png")
    }

    @Test func headParameters() {
        let parameters = MultipartPartHead.parameters("form-data; name=\"a;b\"; filename=\"q\\\"uote\" ; x=plain ")
        #expect(parameters.map(\.name) == ["form-data", "name", "filename", "x"])
        #expect(parameters.map(\.value) == ["", "a;b", "q\"uote", "plain"])
    }

    @Test func boundaryFromContentType() {
        #expect(MultipartParser.boundary(ofContentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(MultipartParser.boundary(ofContentType: "Multipart/Form-Data;charset=utf-8; BOUNDARY=\"a b\"") == "a b")
        #expect(MultipartParser.boundary(ofContentType: "multipart/form-data") == nil)
        #expect(MultipartParser.boundary(ofContentType: "multipart/mixed; boundary=abc") == nil)
        #expect(throws: MultipartParser.Malformed.self) { try MultipartParser(boundary: String(repeating: "a", count: 71)) }
    }
}
