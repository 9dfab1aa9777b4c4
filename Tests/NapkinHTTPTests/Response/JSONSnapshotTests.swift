import Foundation
import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct JSONSnapshotTests {
    struct Board: Encodable, Sendable, Equatable {
        var scores: [String: Int]
        var round: Double
    }

    static func text(_ snapshot: JSONSnapshot<Board>) -> String { String(decoding: snapshot.bytes, as: UTF8.self) }

    @Test("the value as JSON with sorted keys: the same value, the same bytes; a stored value replaces both")
    func encodesOncePerValue() {
        let snapshot = JSONSnapshot(Board(scores: ["b": 2, "a": 1, "c": 3], round: 1))
        #expect(Self.text(snapshot) == #"{"round":1,"scores":{"a":1,"b":2,"c":3}}"#)
        #expect(JSONSnapshot(Board(scores: ["c": 3, "a": 1, "b": 2], round: 1)).bytes == snapshot.bytes)
        snapshot.store(Board(scores: ["a": 4], round: 2))
        #expect(Self.text(snapshot) == #"{"round":2,"scores":{"a":4}}"#)
        #expect(snapshot.value == Board(scores: ["a": 4], round: 2))
        let response = snapshot.response
        #expect(response.status == .ok && response.headers["Content-Type"] == "application/json; charset=utf-8")
        guard case .bytes(let body) = response.body else { Issue.record("not bytes"); return }
        #expect(body == snapshot.bytes)
    }

    @Test("a value that does not encode leaves the snapshot as it was")
    func unencodableIsIgnored() {
        let snapshot = JSONSnapshot(Board(scores: [:], round: 1))
        snapshot.store(Board(scores: [:], round: .nan))
        #expect(Self.text(snapshot) == #"{"round":1,"scores":{}}"#)
        #expect(snapshot.value.round == 1)
    }

    @Test("readers on other threads see one whole value or the next while it is stored")
    func readersSeeWholeValues() async {
        let snapshot = JSONSnapshot(Board(scores: ["a": 0], round: 0))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 1...2_000 { snapshot.store(Board(scores: ["a": round], round: Double(round))) }
            }
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<2_000 {
                        let text = String(decoding: snapshot.bytes, as: UTF8.self)
                        let round = text.split(separator: ":")[1].split(separator: ",")[0]
                        #expect(text == #"{"round":\#(round),"scores":{"a":\#(round)}}"#)
                    }
                }
            }
        }
        #expect(snapshot.value.round == 2_000)
    }
}
