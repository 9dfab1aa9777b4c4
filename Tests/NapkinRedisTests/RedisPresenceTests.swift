import Foundation
@testable import NapkinRedis
import NapkinStorage
@_spi(Napkin) import NapkinSupport
import Testing
import napkin

/// Presence over Redis: two processes, each with its own connection.
@Suite("Presence over Redis", .timeLimit(.minutes(1)))
struct RedisPresenceTests {
    @Test("a key tracked in one process shows in the other; a forged message is refused; a silent process expires")
    func acrossRedis() async throws {
        try await withRedis { server async throws in
            let (clientA, clientB) = (RedisClient(configuration: server.configuration), RedisClient(configuration: server.configuration))
            let (busA, busB) = (RedisBus(client: clientA), RedisBus(client: clientB))
            let one = Presence<String>(topic: "diners", bus: busA, heartbeat: .milliseconds(100), timeout: .seconds(1), origin: "one")
            let two = Presence<String>(topic: "diners", bus: busB, heartbeat: .milliseconds(100), timeout: .seconds(1), origin: "two")
            await one.start()
            await two.start()
            var seen = await two.changes.subscribe().makeAsyncIterator()

            // Unsealed, as anyone who reaches Redis could publish it.
            let channel = RedisBus.redisChannel(for: "presence.diners")
            let forged = #"{"origin":"one","stamp":\#(Date().timeIntervalSince1970 * 1000),"value":{"join":{"seq":1,"key":"Eve","metadata":"x"}}}"#
            _ = try await clientB.command(["PUBLISH".bytes, channel.bytes, Array(forged.utf8)])

            let ada = PresenceProbe(presence: one, key: "Ada")
            await ada.activate()
            // In order: had the forgery been taken, Eve would come first.
            #expect(await seen.next() == .joined("Ada", "Ada"))
            #expect(RefusedInput.wasReported("bus message on \(channel)"))

            // Process one goes silent: its connection is gone, with no goodbye.
            await busA.shutdown()
            await clientA.shutdown()
            #expect(await seen.next() == .left("Ada"))
            await ada.deactivate()
            await one.stop()
            await two.stop()
            await busB.shutdown()
            await clientB.shutdown()
        }
    }
}

/// Tracks `key` while active.
private final actor PresenceProbe: Interactable {
    private let presence: Presence<String>
    private let key: String

    init(presence: Presence<String>, key: String) {
        self.presence = presence
        self.key = key
    }

    func didBecomeActive() async {
        await presence.track(key, key, by: self)
    }
}
