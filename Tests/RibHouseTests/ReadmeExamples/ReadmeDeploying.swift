// README:begin "Deploying" — a faithful copy: lines marked `// wrapper` are not in the README.
import NapkinRedis // wrapper
import NapkinWeb // wrapper

enum ReadmeDeploying { // wrapper
    static func configure(_ configuration: inout NapkinConfiguration) throws -> (RedisBus, RedisLeases) { // wrapper
        let redis = try RedisClient(url: "redis://127.0.0.1:6379/0")   // no TLS, no password
        configuration.sessionRecords = RedisSessionRecords(client: redis)
        let bus = RedisBus(client: redis)          // for SharedEvents / SharedState
        let leases = RedisLeases(client: redis)    // for LeasedWork
        return (bus, leases) // wrapper
    } // wrapper
} // wrapper
// README:end
