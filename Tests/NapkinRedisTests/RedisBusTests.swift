import NapkinStorage
import Testing
@testable import NapkinRedis

@Suite("Redis bus", .timeLimit(.minutes(1)))
struct RedisBusTests {
    @Test("what one process publishes, every subscriber in every process gets (the publisher too)")
    func acrossProcesses() async throws {
        try await withRedis { server async throws in
            let (clientA, clientB) = (RedisClient(configuration: server.configuration), RedisClient(configuration: server.configuration))
            let (busA, busB) = (RedisBus(client: clientA), RedisBus(client: clientB))
            let onA = await busA.subscribe(to: "news")
            let onB = await busB.subscribe(to: "news")
            let alsoOnB = await busB.subscribe(to: "news")
            let otherOnB = await busB.subscribe(to: "other")

            try await busA.publish("hello".bytes, to: "news")
            try await busB.publish("again".bytes, to: "news")
            try await busA.publish("elsewhere".bytes, to: "other")
            for stream in [onA, onB, alsoOnB] {
                #expect(try await next(stream) == .message("hello".bytes))
                #expect(try await next(stream) == .message("again".bytes))
            }
            #expect(try await next(otherOnB) == .message("elsewhere".bytes))
            #expect(RedisBus.redisChannel(for: "news") == "napkin:bus:news")

            await busA.shutdown()
            await busB.shutdown()
            await clientA.shutdown()
            await clientB.shutdown()
        }
    }

    @Test("payloads are bytes: zeros, CR LF and invalid UTF-8 arrive intact")
    func binary() async throws {
        try await withRedisClient { _, client async throws in
            let bus = RedisBus(client: client)
            let stream = await bus.subscribe(to: "bytes")
            let every = (0...255).map { UInt8($0) } + [0x0D, 0x0A, 0, 0]
            try await bus.publish(every, to: "bytes")
            try await bus.publish([], to: "bytes")
            #expect(try await next(stream) == .message(every))
            #expect(try await next(stream) == .message([]))
            await bus.shutdown()
        }
    }

    @Test("a bus hears only buses with its secret: another key's messages and kept values do not open")
    func sealedWithTheSecret() async throws {
        try await withRedis { server async throws in
            let client = RedisClient(configuration: server.configuration)
            let ours = RedisBus(client: client, secret: Array("our deployment's key".utf8))
            let same = RedisBus(client: client, secret: Array("our deployment's key".utf8))
            let theirs = RedisBus(client: client, secret: Array("another deployment".utf8))
            let stream = await ours.subscribe(to: "news")
            try await theirs.publish([6, 6, 6], to: "news")
            try await theirs.publishLatest([6, 6, 7], to: "news")
            try await same.publish([1], to: "news")
            // In order: had a foreign message opened, it would come first.
            #expect(try await next(stream) == .message([1]))
            #expect(try await ours.latest(on: "news") == nil)
            #expect(try await theirs.latest(on: "news") == [6, 6, 7])
            await ours.shutdown()
            await same.shutdown()
            await theirs.shutdown()
            await client.shutdown()
        }
    }

    @Test("publishLatest keeps the value for latest(on:) in every process, and delivers it")
    func latest() async throws {
        try await withRedis { server async throws in
            let (clientA, clientB) = (RedisClient(configuration: server.configuration), RedisClient(configuration: server.configuration))
            let (busA, busB) = (RedisBus(client: clientA), RedisBus(client: clientB))
            #expect(try await busB.latest(on: "pit") == nil)
            let stream = await busB.subscribe(to: "pit")
            try await busA.publishLatest([1, 0, 2], to: "pit")
            try await busA.publishLatest([3, 0, 4], to: "pit")
            #expect(try await next(stream) == .message([1, 0, 2]))
            #expect(try await next(stream) == .message([3, 0, 4]))
            #expect(try await busB.latest(on: "pit") == [3, 0, 4])
            // Redis holds it sealed.
            let kept = busA.seal.seal([3, 0, 4], on: RedisBus.redisChannel(for: "pit"))
            #expect(try await clientA.command(["GET", RedisBus.latestKey(for: "pit")]) == .bulk(kept))
            try await busA.publish([9], to: "pit") // plain publish keeps no value
            #expect(try await next(stream) == .message([9]))
            #expect(try await busA.latest(on: "pit") == [3, 0, 4])
            await busA.shutdown()
            await busB.shutdown()
            await clientA.shutdown()
            await clientB.shutdown()
        }
    }

    @Test("a stream whose consumer stops is removed; the channel is unsubscribed with its last stream")
    func consumerStops() async throws {
        try await withRedisClient { _, client async throws in
            let bus = RedisBus(client: client)
            let kept = await bus.subscribe(to: "ch")
            let dropped = await bus.subscribe(to: "ch")
            let consumer = Task { for await _ in dropped {} }
            consumer.cancel()
            await consumer.value

            try await bus.publish("still".bytes, to: "ch")
            #expect(try await next(kept) == .message("still".bytes))
            #expect(try await subscribers(client, "napkin:bus:ch") == 1)

            let last = Task { for await _ in kept {} }
            last.cancel()
            await last.value
            try await eventually("the channel is unsubscribed") { try await subscribers(client, "napkin:bus:ch") == 0 }

            // Subscribing again works.
            let again = await bus.subscribe(to: "ch")
            try await bus.publish("back".bytes, to: "ch")
            #expect(try await next(again) == .message("back".bytes))
            await bus.shutdown()
        }
    }

    @Test("shutdown ends every stream and closes the subscriber connection; subscribing afterwards gives an ended stream")
    func shutdown() async throws {
        try await withRedis { server async throws in
            let client = RedisClient(configuration: RedisConfiguration(port: server.port, connections: 1))
            let bus = RedisBus(client: client)
            let stream = await bus.subscribe(to: "ch")
            try await eventually("the client and the subscriber are connected") { try await connectedClients(client) == 2 }
            await bus.shutdown()
            #expect(try await next(stream) == nil)
            #expect(try await next(await bus.subscribe(to: "ch")) == nil)
            try await eventually("the subscriber connection is closed") { try await connectedClients(client) == 1 }
            try await bus.publish("still publishes".bytes, to: "ch")
            await client.shutdown()
        }
    }

    @Test("when Redis restarts, the subscriber reconnects, streams get .reconnected, and later messages arrive")
    func reconnects() async throws {
        try await withRedis { server async throws in
            let subscriberClient = RedisClient(configuration: server.configuration)
            let publisherClient = RedisClient(configuration: server.configuration)
            let bus = RedisBus(client: subscriberClient)
            let publisher = RedisBus(client: publisherClient)
            let first = await bus.subscribe(to: "news")
            let second = await bus.subscribe(to: "sports")
            try await publisher.publish("before".bytes, to: "news")
            #expect(try await next(first) == .message("before".bytes))

            await server.stop()
            await #expect(throws: RedisError.self) { try await publisher.publish("lost".bytes, to: "news") }
            // A stream begun while Redis is down is owed a .reconnected too.
            let during = await bus.subscribe(to: "news")
            try await server.restart()

            #expect(try await next(first) == .reconnected)
            #expect(try await next(second) == .reconnected)
            #expect(try await next(during) == .reconnected)
            try await publisher.publish("after".bytes, to: "news")
            try await publisher.publish("score".bytes, to: "sports")
            #expect(try await next(first) == .message("after".bytes))
            #expect(try await next(during) == .message("after".bytes))
            #expect(try await next(second) == .message("score".bytes))

            await bus.shutdown()
            await publisher.shutdown()
            await subscriberClient.shutdown()
            await publisherClient.shutdown()
        }
    }

    @Test("subscribing while Redis is down returns at once; the stream works once Redis is up")
    func subscribeWhileDown() async throws {
        try await withRedis { server async throws in
            await server.stop()
            let client = RedisClient(configuration: server.configuration)
            let bus = RedisBus(client: client)
            // Redis comes back only after subscribe returns: a subscribe
            // that waited for it would never return.
            let stream = await bus.subscribe(to: "news")
            try await server.restart()
            #expect(try await next(stream) == .reconnected)
            try await bus.publish("hi".bytes, to: "news")
            #expect(try await next(stream) == .message("hi".bytes))
            await bus.shutdown()
            await client.shutdown()
        }
    }
}

/// How many subscribers Redis counts on `channel` (`PUBSUB NUMSUB`).
func subscribers(_ client: RedisClient, _ channel: String) async throws -> Int {
    guard case .array(let parts) = try await client.command(["PUBSUB", "NUMSUB", channel]), parts.count == 2 else { return -1 }
    return parts[1].integer ?? -1
}
