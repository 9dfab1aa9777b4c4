// fuzz-max-len: 1024
@testable import NapkinHTTP

/// The event-stream encoder: whatever an app puts in an event, a client reads
/// back exactly one event with the same data (line breaks normalised to LF) and
/// with `event` and `id` that no line break could split into forged fields.
/// Input: data, NUL, event, NUL, id; a fourth field, if present, is the retry.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let fields = fuzzFields(bytes, count: 4).map { String(decoding: $0, as: UTF8.self) }
    let parts = bytes.split(separator: 0, omittingEmptySubsequences: false).count
    let event = ServerSentEvent(
        event: parts > 1 ? fields[1] : nil, data: fields[0], id: parts > 2 ? fields[2] : nil,
        retry: parts > 3 ? fields[3].utf8.reduce(0) { ($0 &* 31) &+ Int($1) } : nil)

    var parser = EventStreamParser()
    let parsed = parser.feed(event.encodedBytes)
    require(parsed.count == 1, "\(event) reads back as \(parsed.count) events")
    let got = parsed[0]
    let expectedData = normalised(event.data)
    require(got.data == expectedData,
            "data \(show(event.data)) reads back as \(show(got.data))")
    for (name, sent, read) in [("event", event.event, got.event), ("id", event.id, got.id)] {
        if let read {
            require(!read.utf8.contains(0x0A) && !read.utf8.contains(0x0D), "\(name) \(show(read)) holds a line break")
        }
        let expected = sent.map { String(decoding: $0.utf8.filter { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self) }
        // Browsers ignore an id holding NUL (WHATWG), so the parser does too.
        let readable = name == "id" && expected?.utf8.contains(0) == true ? nil : expected
        require(read == readable, "\(name) \(String(describing: sent.map(show))) reads back as \(String(describing: read.map(show)))")
    }
    if let retry = event.retry {
        require(got.retry == (retry >= 0 ? retry : nil), "retry \(retry) reads back as \(String(describing: got.retry))")
    }
    return 0
}

/// `text` with CRLF and lone CR turned into LF, as an event-stream client reads lines.
private func normalised(_ text: String) -> String {
    var out: [UInt8] = []
    var previousWasCR = false
    for byte in text.utf8 {
        if byte == 0x0A, previousWasCR { previousWasCR = false; continue }
        previousWasCR = byte == 0x0D
        out.append(byte == 0x0D ? 0x0A : byte)
    }
    return String(decoding: out, as: UTF8.self)
}
