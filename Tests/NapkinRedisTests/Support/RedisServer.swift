import Foundation
import NapkinRedis
@_spi(Napkin) import NapkinSupport
import napkin

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real `redis-server` for one test, on a free port of 127.0.0.1, with no
/// persistence. ``withRedis(_:)`` starts one and always stops it.
final class RedisServer: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// The server exited at once (most likely: its port was taken
        /// between our choosing it and its binding it).
        var exitedEarly = false
    }

    let port: Int
    /// What a client authenticates with (`requirepass`, or an ACL user when
    /// `username` is given); `nil`: the server asks for nothing.
    let username: String?
    let password: String?
    private let executable: URL
    private let directory: URL
    // The running process and its exit, if any; a pthread lock (`Locked`).
    private let process = Locked<(pid: pid_t, exit: ExitLatch)?>(nil)

    private init(port: Int, executable: URL, directory: URL, username: String?, password: String?) {
        self.port = port
        self.executable = executable
        self.directory = directory
        self.username = username
        self.password = password
    }

    /// Where a client of this server connects, with its credentials.
    var configuration: RedisConfiguration {
        RedisConfiguration(host: "127.0.0.1", port: port, username: username, password: password)
    }

    /// Starts a server on a free port, once it answers `PING`. With a
    /// `password` it wants `AUTH` first: of the default user
    /// (`requirepass`), or of ACL user `username` (the default user then
    /// has no access at all).
    static func start(username: String? = nil, password: String? = nil) async throws -> RedisServer {
        guard let executable = findExecutable() else {
            throw Failure(description: "redis-server is not installed: run scripts/setup (it installs redis-server; CI does too)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("napkin-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var attempt = 1
        while true {
            let server = RedisServer(
                port: try freePort(), executable: executable, directory: directory, username: username, password: password)
            do {
                try await server.launch()
                return server
            } catch let failure as Failure where failure.exitedEarly && attempt < 5 {
                attempt += 1
            }
        }
    }

    /// Starts the server again on the same port (after ``stop()``).
    func restart() async throws {
        try await launch()
    }

    /// Stops the server (SIGTERM) and waits for it to exit.
    func stop() async {
        guard let running = process.withLock({ process -> (pid: pid_t, exit: ExitLatch)? in
            defer { process = nil }
            return process
        }) else { return }
        kill(running.pid, SIGTERM)
        await running.exit.wait()
    }

    /// Stops the server and removes its directory.
    func remove() async {
        await stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private func launch() async throws {
        let log = directory.appendingPathComponent("redis.log")
        let arguments = [
            executable.path, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", directory.path, "--logfile", log.path, "--daemonize", "no",
        ] + credentialArguments
        let pid = try Self.spawn(arguments)
        let exit = ExitLatch()
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            exit.open()
        }
        process.withLock { $0 = (pid, exit) }
        let deadline = ContinuousClock.now + .seconds(10)
        while !answersPing() {
            if exit.isOpen || ContinuousClock.now > deadline {
                let exitedEarly = exit.isOpen
                await stop()
                let tail = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").suffix(5).joined(separator: "\n") ?? ""
                throw Failure(description: "redis-server did not start on port \(port):\n\(tail)", exitedEarly: exitedEarly)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private var credentialArguments: [String] {
        guard let password else { return [] }
        guard let username else { return ["--requirepass", password] }
        return ["--user", "default", "off", "--user", username, "on", ">" + password, "~*", "&*", "+@all"]
    }

    /// Starts `arguments` with its standard streams on /dev/null, no signal
    /// blocked and default handlers (a child inherits the spawning thread's
    /// mask, and the test runner's threads block SIGTERM).
    private static func spawn(_ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // Nothing else of the test process: a server that held another
        // test's socket would keep that connection open until it exits.
        SpawnActions.closeInheritedDescriptors(&actions)

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
        guard status == 0 else { throw Failure(description: "cannot start redis-server (error \(status))") }
        return pid
    }

    /// Whether a plain socket gets `+PONG` for `PING` (not through the code
    /// under test).
    private func answersPing() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = Self.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return false }
        let ping = Array("PING\r\n".utf8)
        guard send(fd, ping, ping.count, Int32(MSG_NOSIGNAL)) == ping.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = recv(fd, &buffer, buffer.count, 0)
        // A server that wants AUTH first answers, too.
        return count >= 5 && (Array(buffer[0..<5]) == Array("+PONG".utf8) || Array(buffer[0..<7]) == Array("-NOAUTH".utf8))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Ports handed out so far in this process: each test's server gets a
    /// port no other test of the run will be given, even after the server
    /// stops. (Ports the kernel picks are reused: a test stopping its server
    /// to restart it, or keeping a dead port, could find another test's
    /// server there.) They lie below the kernel's ephemeral range, from a
    /// start that depends on the process, so parallel runs rarely meet.
    private static let handedOut = Locked(20_000 + Int(getpid() % 400) * 25)

    /// The next port of this process's sequence that nothing is bound to now.
    private static func freePort() throws -> Int {
        for _ in 0..<1_000 {
            let port = handedOut.withLock { next -> Int in
                defer { next = next >= 31_999 ? 20_000 : next + 1 }
                return next
            }
            if isFree(port) { return port }
        }
        throw Failure(description: "cannot find a free port")
    }

    /// Whether `port` of 127.0.0.1 can be bound now.
    private static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func findExecutable() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/usr/sbin"]
        for directory in directories {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent("redis-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

/// Opens once, when a process exits; waiters are resumed then.
final class ExitLatch: Sendable {
    // A pthread lock (`Locked`): the process's termination handler runs on
    // a thread of Foundation's.
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    var isOpen: Bool { state.withLock { $0.open } }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }
}

/// Runs `body` with a fresh Redis server (wanting `password`, of ACL user
/// `username` if given), stopped and removed afterwards whether `body`
/// returned or threw.
func withRedis(
    username: String? = nil, password: String? = nil, _ body: (RedisServer) async throws -> Void
) async throws {
    let server = try await RedisServer.start(username: username, password: password)
    do {
        try await body(server)
        await server.remove()
    } catch {
        await server.remove()
        throw error
    }
}

/// Starts `arguments` as a child that inherits every descriptor of the
/// test process not marked close-on-exec, as a careless `posix_spawn` of an
/// app would.
func spawnInheritingDescriptors(_ arguments: [String]) throws -> pid_t {
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, arguments[0], nil, nil, &argv, environ)
    guard status == 0 else { throw RedisServer.Failure(description: "cannot start \(arguments[0]) (error \(status))") }
    return pid
}

/// A port of 127.0.0.1 where nothing listens (a server just stopped there).
func deadPort() async throws -> Int {
    let server = try await RedisServer.start()
    await server.remove()
    return server.port
}

/// Polls `condition` until it holds, failing after `timeout`. For state
/// with no signal to wait for (a key expiring inside Redis).
func eventually(
    within timeout: Duration = .seconds(5),
    _ what: String,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        if ContinuousClock.now > deadline { throw RedisServer.Failure(description: "timed out waiting until \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// Runs `body` with a fresh ``RedisServer`` and a client of it; shuts the
/// client down (even when `body` throws) and always stops the server.
func withRedisClient(
    configured configure: (RedisConfiguration) -> RedisConfiguration = { $0 },
    _ body: (RedisServer, RedisClient) async throws -> Void
) async throws {
    try await withRedis { server async throws in
        let client = RedisClient(configuration: configure(server.configuration))
        do {
            try await body(server, client)
            await client.shutdown()
        } catch {
            await client.shutdown()
            throw error
        }
    }
}
