import Foundation
import NapkinHTTP
import NapkinRedis
import NapkinWeb

// Rib House: `swift run RibHouse`, then open http://127.0.0.1:8080.

let options: LaunchOptions
do {
    options = try LaunchOptions()
} catch {
    FileHandle.standardError.write(Data("RibHouse: \(error)\n\(LaunchOptions.usage)\n".utf8))
    exit(2)
}

if options.showHelp {
    print(LaunchOptions.usage)
    exit(0)
}

var configuration = RibHouseApp.configuration
if let timeout = options.newSessionTimeout { configuration.newSessionIdleTimeout = timeout }
if let grace = options.tabGrace { configuration.tabGracePeriod = grace }
configuration.publicOrigin = options.publicOrigin
// Served over HTTPS (by a proxy): the session cookie is for HTTPS only.
configuration.secureCookies = options.publicOrigin?.lowercased().hasPrefix("https://") ?? false
configuration.trustedProxies = options.trustedProxies
// Metrics are kept only when they are served: on a loopback listener of
// their own, or on the app's port behind a token.
let metrics = options.keepsMetrics ? MetricsRegistry() : nil
configuration.metrics = metrics
configuration.metricsToken = options.metricsToken
configuration.logFormat = options.jsonLog ? .json : .text
// With Redis, every process shares sessions, announcements and the pit.
let redis = options.redis.map { RedisClient(configuration: $0) }
let bus: any MessageBus = redis.map { RedisBus(client: $0, secret: options.redisKey) } ?? LocalBus()
let leases: any LeaseStore = redis.map { RedisLeases(client: $0) } ?? LocalLeases()
if let redis {
    configuration.sessionRecords = RedisSessionRecords(client: redis, secret: options.redisKey)
    if options.redisKey == nil && redis.configuration.password == nil {
        FileHandle.standardError.write(Data(
            "RibHouse: warning: Redis has no password and no --redis-key was given: whoever can write to Redis can forge sessions\n".utf8))
    }
}
let ribHouse = RibHouseApp.make(
    configuration: configuration,
    publicDirectory: options.publicDirectory ?? LaunchOptions.defaultPublicDirectory(),
    pitInterval: options.pitInterval,
    accessLog: options.accessLog,
    bus: bus,
    leases: leases)
if let metrics { RibHouseMetrics.register(in: metrics, redis: redis, pit: ribHouse.pitService) }
let server = HTTPServer(
    // Behind a proxy every connection comes from the proxy's address: a
    // per-address limit would cap the whole site at one address's share.
    configuration: {
        var server = ServerConfiguration(
            host: options.host, port: options.port, perIPConnectionLimit: options.trustedProxies.isEmpty ? 256 : 0,
            shutdownGracePeriod: options.drainTimeout)
        server.metrics = metrics
        return server
    }(),
    responder: ribHouse.router)
// The metrics listener also serves napkin's dashboard of this process (and
// lists the cluster's processes, found on the bus).
let dashboard = options.metricsPort.map { _ in NapkinDashboard(observing: ribHouse.app, bus: bus, metrics: metrics) }
let metricsServer: HTTPServer? = if let metrics, let port = options.metricsPort, let dashboard {
    MetricsEndpoint.listener(host: options.metricsHost, port: port, serving: {
        var operations = HTTPRouter()
        let endpoint = MetricsEndpoint(registry: metrics, token: options.metricsToken)
        operations.get(endpoint.path) { request in try await endpoint.respond(to: request) }
        dashboard.mount(on: &operations, token: options.metricsToken)
        return operations
    }())
} else {
    nil
}

do {
    try server.start()
    try metricsServer?.start()
} catch {
    FileHandle.standardError.write(Data("RibHouse: \(error)\n".utf8))
    exit(1)
}
await ribHouse.start()
// Written unbuffered: the browser-test runner waits for this exact line.
FileHandle.standardOutput.write(Data("Rib House on http://\(options.host):\(server.port)\n".utf8))

// SIGTERM drains: /readyz turns 503, the listener closes (nginx moves on to
// the other processes), every tab's stream is told to reconnect elsewhere,
// and requests in flight finish within --drain-timeout.
let app = ribHouse.app
try await server.runUntilSignalled { await app.drain() }
await metricsServer?.shutdown()
await dashboard?.shutdown()
await ribHouse.shutdown()
await (bus as? RedisBus)?.shutdown()
await redis?.shutdown()
// The access log is written in batches: write out the last lines.
AccessLog.flushStandardError()
