import Foundation
import Testing
@testable import NapkinWeb

@Suite("HTML", .timeLimit(.minutes(1)))
struct HTMLTests {
    @Test("interpolated text is escaped; literals and HTML values are markup")
    func escaping() {
        let name = "<script>alert('x') & \"y\"</script>"
        let inner: HTML = "<b>bold</b>"
        let html: HTML = "<p title=\"\(name)\">\(name) \(inner)</p>"
        #expect(html.rendered == "<p title=\"&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;\">&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt; <b>bold</b></p>")
    }

    @Test("numbers and other values are escaped as text; raw is taken as is")
    func valuesAndRaw() {
        let html: HTML = "\(42)|\(raw: "<hr>")|\([HTML(text: "<"), "<br>"])"
        #expect(html.rendered == "42|<hr>|&lt;<br>")
    }

    @Test("safe JSON never contains a raw angle bracket or ampersand")
    func safeJSON() {
        let json = SafeJSON.encode(["html": "</script><b>&"])
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
        #expect(json.contains("\\u003c/script\\u003e"))
    }

    @Test("return paths never leave the site")
    func returnPaths() {
        #expect(ReturnPath.sanitize("/pit") == "/pit")
        #expect(ReturnPath.sanitize("//evil.example") == "/")
        #expect(ReturnPath.sanitize("/\\evil.example") == "/")
        #expect(ReturnPath.sanitize("https://evil.example") == "/")
        #expect(ReturnPath.sanitize("/a\nb") == "/")
        #expect(ReturnPath.sanitize(nil) == "/")
    }

    @Test("origins match only the same host and port")
    func origins() {
        #expect(OriginCheck.isSameOrigin("http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(!OriginCheck.isSameOrigin("http://evil.example", host: "127.0.0.1:8080"))
        #expect(!OriginCheck.isSameOrigin("null", host: "127.0.0.1:8080"))
        #expect(!OriginCheck.isSameOrigin("http://127.0.0.1:8080", host: nil))
    }
}

@Suite("Patch encoding", .timeLimit(.minutes(1)))
struct PatchEncodingTests {
    @Test("patches of one place with the same HTML share their encoded frame; only the id line differs")
    @MainActor
    func sharedBody() {
        let first = String(decoding: Patch(id: "n-1", html: "<p>Pit 231°F</p>").frame.numbered(3).bytes, as: UTF8.self)
        let later = String(decoding: Patch(id: "n-1", html: "<p>Pit 231°F</p>").frame.numbered(41).bytes, as: UTF8.self)
        let other = String(decoding: Patch(id: "n-1", html: "<p>Pit 232°F</p>").frame.numbered(42).bytes, as: UTF8.self)
        #expect(first.hasPrefix("id: 3\nevent: patch\ndata: {"))
        #expect(first.dropFirst("id: 3\n".count) == later.dropFirst("id: 41\n".count))
        #expect(other.contains("232") && !other.contains("231"))
    }

    @Test("a patch's JSON decodes back to its id and html, with no raw angle brackets")
    func patchJSON() throws {
        let html = "<div class=\"napkin\" id=\"n-1\">\"quoted\" \\ back\nline\ttab \u{1} & 🔥 \u{2028}</div>"
        let json = String(decoding: Patch(id: "n-1", html: html).data, as: UTF8.self)
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(decoded == ["id": "n-1", "html": html])
    }

    @Test("line separators are escaped; other three-byte characters pass through", arguments: [
        "\u{2028}", "\u{2029}", "€ …", "a\u{2029}b\u{2028}", "\u{2027}\u{202A}", "end €", "\u{E2}", "",
    ])
    func separators(text: String) throws {
        let json = String(decoding: Patch(id: "n-1", html: text).data, as: UTF8.self)
        #expect(!json.contains("\u{2028}") && !json.contains("\u{2029}"))
        #expect(json.contains("€") == text.contains("€"))
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(decoded["html"] == text)
    }
}
