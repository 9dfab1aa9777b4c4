import Foundation
import NapkinHTTP
import Testing
@testable import RibHouse

/// What Rib House reads back from Redis — an announcement or a pit off the
/// bus, the user in a session record — meets the rules its own input does.
@Suite("Rib House values read back from Redis", .timeLimit(.minutes(1)))
struct RibHouseSharedInputTests {
    private func decode<Value: Decodable>(_ type: Value.Type, _ json: String) -> Value? {
        try? JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test("an announcement off the bus must be one the API would take")
    func announcements() {
        #expect(decode(Announcement.self, #"{"text":"Ribs at six"}"#)?.text == "Ribs at six")
        #expect(decode(Announcement.self, #"{"text":""}"#) == nil)
        #expect(decode(Announcement.self, #"{"text":"\#(String(repeating: "x", count: 5_000_000))"}"#) == nil)
        #expect(decode(Announcement.self, #"{"text":"hi\u202e"}"#) == nil)
    }

    @Test("a signed-in user read back must have a name login takes and the menu's foods")
    func users() throws {
        let good = User(name: "Zoë", barbecueFoods: User.barbecueFoods)
        #expect(decode(User.self, String(decoding: try JSONEncoder().encode(good), as: UTF8.self)) == good)
        #expect(decode(User.self, #"{"name":"\#(String(repeating: "x", count: 5_000_000))","barbecueFoods":[]}"#) == nil)
        #expect(decode(User.self, #"{"name":"  ","barbecueFoods":[]}"#) == nil)
        #expect(decode(User.self, #"{"name":"Zoë","barbecueFoods":["<script>"]}"#) == nil)
    }

    @Test("a pit off the bus must be a pit: a few smokers, short labels, temperatures in range")
    func pits() throws {
        let opening = PitSimulator.opening()
        let json = String(decoding: JSONSnapshot(opening).bytes, as: UTF8.self)
        #expect(decode(PitState.self, json)?.smokers == opening.smokers)
        #expect(decode(PitState.self, json.replacingOccurrences(of: "\"round\":0", with: "\"round\":-1")) == nil)
        #expect(decode(PitState.self, json.replacingOccurrences(of: "Old Bess", with: String(repeating: "B", count: 1_000))) == nil)
        #expect(decode(PitState.self, json.replacingOccurrences(of: "\"temperature\":231", with: "\"temperature\":9000000")) == nil)
        let many = #"{"smokers":[\#(Array(repeating: #"{"name":"a","item":"b","status":"ready","temperature":1,"minutesLeft":0}"#, count: 17).joined(separator: ","))],"round":1,"updatedAt":"2025-01-01T00:00:00Z"}"#
        #expect(decode(PitState.self, many) == nil)
    }
}
