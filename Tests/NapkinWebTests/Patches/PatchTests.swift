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

    /// The data of the one event `bytes` hold, read as a client reads the stream.
    static func data(of bytes: [UInt8]) -> String? {
        var parser = EventStreamParser()
        let events = parser.feed(bytes)
        guard events.count == 1, events[0].event == WireProtocol.Event.patch else { return nil }
        return events[0].data
    }

    /// `patch`'s frame, as a stream's bytes.
    @MainActor
    static func frame(_ patch: Patch) -> [UInt8] {
        patch.frame.lines
    }

    @Test("a patch's frame is one patch event whose data is the patch's JSON, on one line")
    @MainActor
    func frameIsOneEvent() throws {
        for id in Self.awkward.prefix(4) {
            for html in Self.awkward {
                let patch = Patch(id: id, html: html)
                let data = try #require(Self.data(of: Self.frame(patch)), "id \(id) html \(html)")
                #expect(Array(data.utf8) == patch.data, "id \(id) html \(html)")
            }
        }
    }

    @Test("the JSON in a patch decodes as the wire protocol's PatchData, with no raw line break, <, > or &")
    func jsonReadsBack() throws {
        for html in Self.awkward {
            let json = Patch(id: "f-1", html: html).data
            #expect(!json.contains { [0x0A, 0x0D, 0x3C, 0x3E, 0x26].contains($0) })
            let text = String(decoding: json, as: UTF8.self)
            #expect(!text.contains("\u{2028}") && !text.contains("\u{2029}"))
            let decoded = try JSONDecoder().decode(WireProtocol.PatchData.self, from: Data(json))
            #expect(decoded == WireProtocol.PatchData(id: "f-1", html: html))
        }
    }

    @Test("the bytes on the wire, escapes spelled as napkin's client has always read them")
    @MainActor
    func exactBytes() {
        let frame = Self.frame(Patch(id: "n-1", html: "<b a=\"x\">&\n</b>\u{2028}\\\u{1}"))
        #expect(String(decoding: frame, as: UTF8.self) == """
            event: patch
            data: {"id":"n-1","html":"\\u003cb a=\\"x\\"\\u003e\\u0026\\n\\u003c/b\\u003e\\u2028\\\\\\u0001"}


            """)
    }

    @Test("the next tab patching the same place with the same HTML gets the same frame; another place its own")
    @MainActor
    func framesAreShared() {
        for html in Self.awkward {
            let first = Patch(id: "n-1", html: html).frame
            let second = Patch(id: "n-1", html: html).frame
            let other = Patch(id: "n-2", html: html).frame
            #expect(first == second)
            #expect(other != first)
            #expect(first.numbered(41).bytes == Array("id: 41\n".utf8) + first.lines)
        }
    }
}
