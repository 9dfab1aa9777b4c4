import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
@testable import RibHouse

/// What a pit tick costs a signed-in tab on the wire.
@Suite("Rib House patch sizes", .timeLimit(.minutes(1)))
@MainActor
struct RibHousePatchSizeTests {
    @Test("a pit tick sends a signed-in tab only its pit line: at most 300 bytes, event frame included",
          arguments: RibHouseHarness.Mode.allCases)
    func pitTickIsSmall(mode: RibHouseHarness.Mode) async throws {
        let harness = try await RibHouseHarness.start(mode, ticking: false)
        let guest = harness.client()
        _ = try await guest.submit(try await guest.get("/"), button: loginButton, fields: ["name": "Ada"])
        let stream = try await guest.events()
        _ = try await stream.nextPatch()   // the whole page
        var headline = await harness.pitService.current.headline
        var measured = 0
        for _ in 0..<40 where measured < 3 {
            let pit = await harness.tickPit()
            // A tick that leaves the header's line as it was sends nothing.
            guard pit.headline != headline else { continue }
            headline = pit.headline
            var event = try await stream.next()
            while !event.data.contains("Pit \(pit.averageTemperature)") { event = try await stream.next() }
            #expect(event.data.contains("pit-header"))
            #expect(!event.data.contains("Barbecue foods"), "the whole screen was sent")
            #expect(event.encodedBytes.count <= 300, "a tick cost \(event.encodedBytes.count) bytes")
            measured += 1
        }
        #expect(measured == 3)
        stream.close()
        await harness.stop()
    }
}
