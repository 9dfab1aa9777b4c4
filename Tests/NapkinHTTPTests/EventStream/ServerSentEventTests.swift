import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct ServerSentEventTests {
    @Test func encodesEveryField() {
        let event = ServerSentEvent(event: "patch", data: "line one\nline two", id: "42", retry: 1500)
        #expect(event.encoded == "event: patch\nid: 42\nretry: 1500\ndata: line one\ndata: line two\n\n")
        #expect(ServerSentEvent(data: "").encoded == "data: \n\n")
        #expect(ServerSentEvent(event: "a\nb", data: "x").encoded == "event: ab\ndata: x\n\n")
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
}
