import Foundation
@testable import NapkinRedis
import NapkinStorage
@_spi(Napkin) import NapkinSupport
import Testing
import napkin

/// What anyone who reaches Redis can publish is checked before napkin takes
/// it: without the deployment's key nothing opens, and even a message sealed
/// with it (a leaked key) is checked as input.
@Suite("Bus messages from Redis are input", .timeLimit(.minutes(1)))
struct RedisBusInputTests {
    /// A message as napkin writes it, with any fields.
    private static func envelope(_ value: String, stamp: Double? = nil, holder: String? = nil, origin: String = "forger") -> [UInt8] {
        var fields = [
            #""origin":"\#(origin)""#, #""stamp":\#(stamp ?? Date().timeIntervalSince1970 * 1000)"#, #""value":\#(value)"#,
        ]
        if let holder { fields.append(#""holder":"\#(holder)""#) }
        return Array("{\(fields.joined(separator: ","))}".utf8)
    }

    @Test("a shared state under a lease takes only the holder's states, and none stamped in the future")
    func stateFromTheHolderOnly() async throws {
        try await withRedisClient { _, client async throws in
            let bus = RedisBus(client: client)
            let leases = RedisLeases(client: client)
            let ticking = LeasedWork(name: "pit", leases: leases, ttl: .seconds(30))
            let (held, holding) = AsyncStream<Void>.makeStream()
            ticking.start {
                holding.yield()
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(1)) }
            }
            var heldNow = held.makeAsyncIterator()
            await heldNow.next()
            let source = SharedState(channel: "pit", bus: bus, initial: 0, lease: ticking, origin: "holder")
            let follower = SharedState(
                channel: "pit", bus: bus, initial: 0, lease: LeasedWork(name: "pit", leases: leases), origin: "follower")
            await source.start()
            await follower.start()
            var seen = await follower.broadcaster.subscribe().makeAsyncIterator()
            #expect(await seen.next() == 0)
            try await source.send(1)
            #expect(await seen.next() == 1)

            // Without the key, even the holder's own message does not open.
            let holder = try await client.command(["GET", RedisLeases.key(for: "pit")]).string
            let channel = RedisBus.redisChannel(for: "state.pit")
            _ = try await client.command(["PUBLISH".bytes, channel.bytes, Self.envelope("93", holder: holder)])
            // With it (leaked), the lease's holder can be named, but a stamp far
            // in the future (which would freeze the state forever) is refused,
            // as is a message naming anyone else.
            for forged in [
                Self.envelope("99", holder: "someone-else"), Self.envelope("98"),
                Self.envelope("97", stamp: 9e15, holder: holder), Self.envelope("96", stamp: .infinity, holder: holder),
                Self.envelope("\"not a number\"", holder: holder),
                Array("not json".utf8),
            ] {
                _ = try await client.command(["PUBLISH".bytes, channel.bytes, bus.seal.seal(forged, on: channel)])
            }
            // Past the size a seal may have, dropped unhashed: sent as is.
            let oversized = [UInt8](repeating: 0x20, count: 100_000) + Self.envelope("95", holder: holder)
            _ = try await client.command(["PUBLISH".bytes, channel.bytes, oversized])
            try await source.send(2)
            // Delivered in order: had any forgery been taken, it would come first.
            #expect(await seen.next() == 2)
            #expect(RefusedInput.wasReported("bus message on \(channel)"))
            #expect(RefusedInput.wasReported("bus message on state.pit"))

            // A process that starts now does not take a forged kept value either.
            _ = try await client.command([
                "SET".bytes, RedisBus.latestKey(for: "state.pit").bytes,
                bus.seal.seal(Self.envelope("94", stamp: 9e15, holder: holder), on: channel),
            ])
            let late = SharedState(channel: "pit", bus: bus, initial: -1, lease: LeasedWork(name: "pit", leases: leases), origin: "late")
            await late.start()
            #expect(await late.broadcaster.value == -1)
            late.stop()
            source.stop()
            follower.stop()
            await ticking.stop()
            await bus.shutdown()
        }
    }

    @Test("an event larger than the bus takes, or malformed, is dropped")
    func oversizedEvents() async throws {
        try await withRedisClient { _, client async throws in
            let bus = RedisBus(client: client)
            let sender = SharedEvents<String>(channel: "toasts", bus: bus, broadcaster: EventBroadcaster(), origin: "sender")
            let receiver = SharedEvents<String>(channel: "toasts", bus: bus, broadcaster: EventBroadcaster(), origin: "receiver")
            await receiver.start()
            var seen = await receiver.broadcaster.subscribe().makeAsyncIterator()
            let channel = RedisBus.redisChannel(for: "events.toasts")
            let huge = "\"" + String(repeating: "x", count: 20_000_000) + "\""
            // Past the size a seal may have, dropped unhashed: sent as is.
            _ = try await client.command(["PUBLISH".bytes, channel.bytes, Self.envelope(huge)])
            for forged in [Self.envelope("\"bad origin\"", origin: "a b"), Self.envelope("\"later\"", stamp: 9e15)] {
                _ = try await client.command(["PUBLISH".bytes, channel.bytes, bus.seal.seal(forged, on: channel)])
            }
            try await sender.send("ribs at six")
            #expect(await seen.next() == "ribs at six")
            #expect(RefusedInput.wasReported("bus message on events.toasts"))
            receiver.stop()
            await bus.shutdown()
        }
    }
}
