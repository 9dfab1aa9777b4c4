import NapkinStorage

/// A message bus over Redis pub/sub, shared by every process of the app.
///
/// Channel `c` is Redis channel `napkin:bus:<c>`; its latest value is key
/// `napkin:latest:<c>` (kept until overwritten). Payloads are bytes,
/// binary-safe, sealed with the deployment's secret (an HMAC of channel and
/// payload before the payload): a message published by anyone without it,
/// such as whoever can reach an unprotected Redis, is dropped unread. Publishing goes through the ``RedisClient``; subscriptions
/// share one more connection of the bus's own, opened with the first
/// subscription and read by a thread of its own. When that connection
/// fails, the bus reconnects (backing off up to a second), subscribes again
/// and yields ``/NapkinStorage/BusDelivery/reconnected`` to every stream, once its channel
/// is subscribed again.
///
/// Streams buffer without a bound: consume them promptly.
public final class RedisBus: MessageBus {
    private let client: RedisClient
    private let subscriber: BusSubscriber
    let seal: BusSeal

    /// A bus publishing through `client`, and subscribing on a connection
    /// of its own to the same server, sealing and opening messages with
    /// `secret` (the same in every process; by default the configuration's
    /// ``RedisConfiguration/derivedSecret``). The bus does not shut
    /// `client` down.
    public init(client: RedisClient, secret: [UInt8]? = nil) {
        self.client = client
        let seal = BusSeal(secret: secret ?? client.configuration.derivedSecret)
        self.seal = seal
        subscriber = BusSubscriber(configuration: client.configuration) { channel, payload in
            seal.open(payload, on: channel)
        }
    }

    deinit {
        subscriber.stop()
    }

    /// The Redis channel that carries bus channel `channel`.
    public static func redisChannel(for channel: String) -> String {
        "napkin:bus:\(channel)"
    }

    /// The Redis key that keeps bus channel `channel`'s latest value.
    public static func latestKey(for channel: String) -> String {
        "napkin:latest:\(channel)"
    }

    /// `PUBLISH`es `payload`, sealed.
    public func publish(_ payload: [UInt8], to channel: String) async throws {
        let redisChannel = Self.redisChannel(for: channel)
        _ = try await client.command([Array("PUBLISH".utf8), Array(redisChannel.utf8), seal.seal(payload, on: redisChannel)])
    }

    /// `SET`s the latest value and `PUBLISH`es it, in one step (a Lua
    /// script): concurrent publishers cannot leave the kept value different
    /// from the last one delivered.
    public func publishLatest(_ payload: [UInt8], to channel: String) async throws {
        let redisChannel = Self.redisChannel(for: channel)
        _ = try await client.command([
            Array("EVAL".utf8), Array(Self.publishLatestScript.utf8), Array("1".utf8),
            Array(Self.latestKey(for: channel).utf8), seal.seal(payload, on: redisChannel), Array(redisChannel.utf8),
        ])
    }

    private static let publishLatestScript = """
        redis.call('SET', KEYS[1], ARGV[1])
        return redis.call('PUBLISH', ARGV[2], ARGV[1])
        """

    /// The kept value (`GET`), if any and if it opens.
    public func latest(on channel: String) async throws -> [UInt8]? {
        let reply = try await client.command(["GET", Self.latestKey(for: channel)])
        switch reply {
        case .null: return nil
        case .bulk(let bytes): return seal.open(bytes, on: Self.redisChannel(for: channel))
        default: throw RedisError.unexpectedReply("GET \(Self.latestKey(for: channel)) did not answer a string")
        }
    }

    /// What is published on `channel` from now on. Returns once Redis has
    /// confirmed the subscription; when Redis cannot be reached it returns
    /// at once, and the stream gets ``/NapkinStorage/BusDelivery/reconnected`` when the
    /// subscription is made. The subscription ends when the consumer stops
    /// iterating, and every stream ends at ``shutdown()``.
    public func subscribe(to channel: String) async -> AsyncStream<BusDelivery> {
        await subscriber.subscribe(to: Self.redisChannel(for: channel))
    }

    /// Ends every stream, closes the subscriber connection and ends its
    /// thread; returns once it has. Publishing still works until the
    /// client is shut down.
    public func shutdown() async {
        await subscriber.stopAndWait()
    }
}
