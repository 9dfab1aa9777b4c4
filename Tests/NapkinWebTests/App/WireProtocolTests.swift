import Foundation
import Testing
@testable import NapkinWeb

/// napkin.js and the server speak one protocol: every name the script uses
/// is in ``WireProtocol``, and every name there is one the script uses (but
/// for the few only the server reads).
@Suite("Wire protocol", .timeLimit(.minutes(1)))
struct WireProtocolTests {
    static let script = String(decoding: ClientScript.bytes, as: UTF8.self)

    /// The first capture group of every match of `pattern` in the script.
    static func names(_ pattern: String, in text: String = script) throws -> Set<String> {
        let expression = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return Set(expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        })
    }

    /// `napkinEventId` as the attribute it reads: `data-napkin-event-id`.
    static func attribute(fromDataset key: String) -> String {
        "data-" + key.reduce(into: "") { name, character in
            name += character.isUppercase ? "-" + character.lowercased() : String(character)
        }
    }

    @Test("headers, form fields, cookies, query parameters and stream events: the script's names are the definition's")
    func names() throws {
        typealias W = WireProtocol
        #expect(try Self.names("'(X-[A-Za-z-]+)'") == [W.Header.client, W.Header.tab, W.Header.eventID, W.Header.csrf, W.Header.validate, W.Header.formToken])
        // `_self` is a link target, not a field. The script names the tab
        // field for its goodbye; a form carries its own.
        #expect(try Self.names("'(_[a-z]+)'").subtracting(["_self"])
            == [W.Field.tab, W.Field.fragment, W.Field.action, W.Field.csrf, W.Field.returnPath, W.Field.key, W.Field.formToken])
        // The one path the script knows by heart: the rest the page names.
        #expect(try Self.names("'(/_napkin/[a-z]+)'") == [WebSession.leavePath])
        // The session cookie is HttpOnly: only the server reads it.
        #expect(try Self.names("(napkin_[a-z]+)") == [W.Cookie.script])
        // The server writes the stream's `tab`; the script adds the last event, and the path after a drain.
        #expect(try Self.names("'([a-z-]+)='") == [W.Query.lastEventID, W.Query.path])
        #expect(try Self.names("source\\.addEventListener\\('([a-z]+)'") == [W.Event.patch, W.Event.end, W.Event.reconnect, W.Event.drain])
    }

    @Test("data attributes: what the script reads or writes is the definition's, and the definition's are all used")
    func attributes() throws {
        typealias A = WireProtocol.Attribute
        let written = try Self.names("(data-napkin-[a-z-]+)")
        let dataset = try Self.names("dataset\\.(napkin[A-Za-z]+)").map(Self.attribute(fromDataset:))
        let defined: Set = [
            A.tab, A.stream, A.csrf, A.eventID, A.form, A.field, A.reload, A.hiddenGrace, A.validate, A.message, A.working,
        ]
        #expect(written.union(dataset) == defined.union(A.clientOwn))
    }

    @Test("a validation pass's verdict has the fields the script reads")
    func validationVerdict() throws {
        typealias Keys = WireProtocol.ValidationData.CodingKeys
        #expect(try Self.names("verdict\\.([a-z]+)") == [Keys.field.stringValue, Keys.message.stringValue])
        let data = try JSONEncoder().encode(WireProtocol.ValidationData(field: "name", message: "Too long."))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: String]
        #expect(object == [Keys.field.stringValue: "name", Keys.message.stringValue: "Too long."])
    }

    @Test("a patch event is named as the script listens for it, and its data has the fields the script reads")
    @MainActor
    func patchEvent() throws {
        let event = String(decoding: Patch(id: "f", html: "<p>x</p>").frame.numbered(7).bytes, as: UTF8.self)
        #expect(event.hasPrefix("id: 7\nevent: \(WireProtocol.Event.patch)\n"))
        typealias Keys = WireProtocol.PatchData.CodingKeys
        #expect(try Self.names("patch\\.([a-z]+)") == [Keys.id.stringValue, Keys.html.stringValue])
        let object = try JSONSerialization.jsonObject(with: Data(Patch(id: "f", html: "<p>x</p>").data)) as? [String: String]
        #expect(object.map { Set($0.keys) } == [Keys.id.stringValue, Keys.html.stringValue])
    }
}
