// README:begin "Cluster" — a faithful copy: lines marked `// wrapper` are not in the README.
import NapkinRedis // wrapper
import NapkinWeb // wrapper

enum ReadmeDeploying { // wrapper
    static func configure(_ configuration: inout NapkinConfiguration, key: [UInt8]) throws -> (RedisBus, RedisLeases) { // wrapper
        let redis = try RedisClient(url: "redis://app:secret@127.0.0.1:6379/0")   // AUTH, then SELECT; no TLS
        configuration.sessionRecords = RedisSessionRecords(client: redis, secret: key)  // the same key in every process
        let bus = RedisBus(client: redis, secret: key)  // for SharedEvents / SharedState
        let leases = RedisLeases(client: redis)    // for LeasedWork
        return (bus, leases) // wrapper
    } // wrapper
} // wrapper
// README:end
