import Foundation
import NapkinHTTP
import Testing
@testable import NapkinWeb

@Suite("Patch events", .timeLimit(.minutes(1)))
struct PatchTests {
    /// Text with everything the JSON and the event stream treat specially.
    static let awkward = [
        "", "plain", "<li class=\"a\">Ribs & 'slaw'</li>", "line\nbreak\r\nand\rreturn\ttab", "back\\slash \"quote\"",
        "\u{0}\u{1}\u{1F}", "sep\u{2028}para\u{2029}end", "é ü 🔥 \u{E2}", "\u{2027}\u{202A}",
    ]

    /// The data of the one event `body` holds, read as a client reads the stream.
    static func data(of body: [UInt8]) -> String? {
        var parser = EventStreamParser()
        let events = parser.feed(body)
        guard events.count == 1, events[0].event == "patch" else { return nil }
        return events[0].data
    }

    @Test("a patch's body is one patch event, framed as the event-stream encoder frames its data")
    func bodyIsOneEvent() throws {
        for id in Self.awkward.prefix(4) {
            for html in Self.awkward {
                let body = Patch(id: id, html: html, sequence: 3).body
                let data = try #require(Self.data(of: body), "id \(id) html \(html)")
                #expect(body == ServerSentEvent(event: "patch", data: data).encodedBytes, "id \(id) html \(html)")
            }
        }
    }

    @Test("the JSON in a patch reads back as its id and HTML, with no raw line break, <, > or &")
    func jsonReadsBack() throws {
        for html in Self.awkward {
            let json = try #require(Self.data(of: Patch(id: "f-1", html: html, sequence: 1).body))
            #expect(!json.utf8.contains { [0x0A, 0x0D, 0x3C, 0x3E, 0x26].contains($0) })
            #expect(!json.contains("\u{2028}") && !json.contains("\u{2029}"))
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
            #expect(object == ["id": "f-1", "html": html])
        }
    }

    @Test("the bytes on the wire, escapes spelled as napkin's client has always read them")
    func exactBytes() {
        let body = Patch(id: "n-1", html: "<b a=\"x\">&\n</b>\u{2028}\\\u{1}", sequence: 5).body
        #expect(String(decoding: body, as: UTF8.self) == """
            event: patch
            data: {"id":"n-1","html":"\\u003cb a=\\"x\\"\\u003e\\u0026\\n\\u003c/b\\u003e\\u2028\\\\\\u0001"}


            """)
    }

    @Test("an event is the id line for its sequence, then the shared body")
    func eventPrependsTheIDLine() {
        let body = Patch(id: "x", html: "<b>1</b>", sequence: 0).body
        for sequence: UInt64 in [0, 9, 10, 12_345, .max] {
            #expect(Patch.event(sequence: sequence, body: body) == Array("id: \(sequence)\n".utf8) + body)
        }
        #expect(Patch.event(sequence: 7, body: []) == Array("id: 7\n".utf8))
    }

    @Test("a tab's event is its id line and the body; the next tab patching the same place with the same HTML gets the same body")
    @MainActor
    func eventsShareTheirBody() {
        for html in Self.awkward {
            let first = Patch(id: "n-1", html: html, sequence: 41)
            let second = Patch(id: "n-1", html: html, sequence: 7)
            let other = Patch(id: "n-2", html: html, sequence: 8)
            #expect(first.event == Array("id: 41\n".utf8) + first.body)
            #expect(second.event == Array("id: 7\n".utf8) + first.body)
            #expect(other.event == Array("id: 8\n".utf8) + other.body)
            #expect(other.body != first.body)
        }
    }
}
