import Foundation
import NapkinHTTP
import Testing
@testable import RibHouse

@MainActor
@Suite struct RibHouseAPITests {
    let router = RibHouseApp.make(accessLog: false).router

    func post(_ body: String, type: String = "application/json") async throws -> Response {
        try await router.respond(to: Request(
            method: .post, target: "/api/announcements", headers: ["Content-Type": type], body: Array(body.utf8)))
    }

    @Test func announcementIsAccepted() async throws {
        let response = try await post(#"{"text": "  Last call!  "}"#)
        #expect(response.status == .accepted)
        #expect(GuestClient.text(response).contains("\"Last call!\""))
    }

    @Test func badAnnouncementsAreRefused() async throws {
        #expect(try await post(#"{"text": "   "}"#).status == .badRequest)
        #expect(try await post(#"{"text": "\#(String(repeating: "x", count: 141))"}"#).status == .badRequest)
        #expect(try await post("{bad").status == .badRequest)
        #expect(try await post("text=hi", type: "text/plain").status == .unsupportedMediaType)
    }

    @Test func menuAndPitAreJSON() async throws {
        let menu = try await router.respond(to: Request(method: .get, target: "/api/menu"))
        #expect(GuestClient.text(menu).contains("\"Burnt Ends\""))
        #expect(GuestClient.text(menu).contains("\"specials\""))
        let pit = try await router.respond(to: Request(method: .get, target: "/api/pit"))
        #expect(GuestClient.text(pit).contains("\"Old Bess\""))
    }
}

@Suite struct RibHouseServiceTests {
    @Test func namesAreTrimmedAndBounded() throws {
        #expect(try LoginError.validate(name: "  Ada \n") == "Ada")
        #expect(try LoginError.validate(name: String(repeating: "é", count: 40)).count == 40)
        #expect(throws: LoginError.emptyName) { try LoginError.validate(name: " \t ") }
        #expect(throws: LoginError.nameTooLong(limit: 40)) { try LoginError.validate(name: String(repeating: "x", count: 41)) }
        #expect(throws: LoginError.invisibleCharacters) { try LoginError.validate(name: "A\u{7}da") }
    }

    @Test func pitStaysInRangeAndMoves() {
        var simulator = PitSimulator(seed: 42)
        var pit = PitSimulator.opening()
        for round in 1...200 {
            pit = simulator.tick(pit)
            #expect(pit.round == round)
            #expect(pit.smokers.allSatisfy { PitSimulator.temperatureRange.contains($0.temperature) })
        }
        #expect(pit.headline.hasPrefix("Pit "))
    }

    @Test func pitServiceTicksOnceStartedAndStops() async throws {
        let pit = PitService(interval: .milliseconds(20))
        await pit.start()
        await pit.start()
        try await Task.sleep(for: .milliseconds(200))
        await pit.stop()
        let round = await pit.current.round
        #expect(round > 0)
        try await Task.sleep(for: .milliseconds(100))
        #expect(await pit.current.round == round)
    }
}
