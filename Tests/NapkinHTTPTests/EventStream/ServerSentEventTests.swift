import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct ServerSentEventTests {
    @Test func encodesEveryField() {
        let event = ServerSentEvent(event: "patch", data: "line one\nline two", id: "42", retry: 1500)
        #expect(event.encoded == "id: 42\nretry: 1500\nevent: patch\ndata: line one\ndata: line two\n\n")
        #expect(ServerSentEvent(data: "").encoded == "data: \n\n")
        #expect(ServerSentEvent(event: "a\nb", data: "x").encoded == "event: ab\ndata: x\n\n")
    }

    @Test func aFrameIsSharedAndEachStreamAddsItsOwnID() {
        let frame = EventFrame(event: "patch", data: Array("{\"a\":1}".utf8))
        #expect(String(decoding: frame.lines, as: UTF8.self) == "event: patch\ndata: {\"a\":1}\n\n")
        for id: UInt64 in [0, 9, 10, 41, 1_000_000, .max] {
            #expect(String(decoding: frame.numbered(id).bytes, as: UTF8.self) == "id: \(id)\n" + String(decoding: frame.lines, as: UTF8.self))
        }
        // The same framing as any event: line breaks in the data become data lines.
        #expect(EventFrame(event: nil, data: "a\r\nb\rc").lines == ServerSentEvent(data: "a\r\nb\rc").encodedBytes)
    }

    @Test("a numbered frame shares its lines, and copies out whole in any two pieces")
    func numberedFrameSharesItsLines() {
        let frame = EventFrame(event: "patch", data: "abc\ndef")
        let numbered = frame.numbered(1234)
        #expect(numbered.lines.withUnsafeBufferPointer(\.baseAddress) == frame.lines.withUnsafeBufferPointer(\.baseAddress))
        let whole = numbered.bytes
        #expect(whole == Array("id: 1234\n".utf8) + frame.lines)
        #expect(numbered.byteCount == whole.count)
        #expect(frame.bytes == frame.lines && frame.byteCount == frame.lines.count)
        for split in 0...whole.count {
            var out = [UInt8](repeating: 0, count: whole.count)
            out.withUnsafeMutableBytes { raw in
                numbered.copyBytes(from: 0, count: split, into: raw.baseAddress!)
                numbered.copyBytes(from: split, count: whole.count - split, into: raw.baseAddress! + split)
            }
            #expect(out == whole, "split at \(split)")
        }
    }

    @Test func parserRoundTripsAcrossArbitraryChunks() {
        let events = [
            ServerSentEvent(event: "patch", data: "a\nb\nc", id: "1"),
            ServerSentEvent(data: "plain"),
            ServerSentEvent(event: "x", data: "", id: "3", retry: 10),
        ]
        let wire = Array((":hello\n\n" + events.map(\.encoded).joined() + ":\n\n").utf8)
        for chunkSize in [1, 3, 7, wire.count] {
            var parser = EventStreamParser()
            var parsed: [ServerSentEvent] = []
            var index = 0
            while index < wire.count {
                let end = min(index + chunkSize, wire.count)
                parsed += parser.feed(Array(wire[index..<end]))
                index = end
            }
            #expect(parsed == events)
            #expect(parser.comments == 2)
            #expect(parser.lastEventID == "3")
        }
    }

    @Test func parserHandlesCRLF() {
        var parser = EventStreamParser()
        let parsed = parser.feed(Array("data: a\r\ndata: b\r\n\r\n".utf8))
        #expect(parsed == [ServerSentEvent(data: "a\nb")])
    }

    @Test(arguments: ["", "a", "\r", "\n", "\r\n", "\n\r", "\r\r\n", "\r\n\n", "one\r\ntwo\rthree\nfour", "é\u{2028}\n<b>\r", "x\r\n"])
    func dataLinesSplitOnEveryLineBreakAsTheSpecReadsThem(data: String) {
        // The reference: CRLF, CR and LF each end a line.
        var lines: [String] = []
        var line = ""
        var previousWasCR = false
        for scalar in data.unicodeScalars {
            if scalar == "\n", previousWasCR { previousWasCR = false; continue }
            previousWasCR = scalar == "\r"
            if scalar == "\r" || scalar == "\n" { lines.append(line); line = ""; continue }
            line.unicodeScalars.append(scalar)
        }
        lines.append(line)
        #expect(ServerSentEvent(data: data).encoded == lines.map { "data: \($0)\n" }.joined() + "\n")
    }
}
