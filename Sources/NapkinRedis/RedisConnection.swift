import CHiredis

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One blocking hiredis connection. Not thread-safe (neither is a
/// `redisContext`): it belongs to the one thread that made it, which is the
/// only thread that calls it and frees it.
///
/// Any method that throws ``RedisError/unreachable(_:)`` leaves the
/// connection broken: the owner drops it and connects again later.
final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>
    private let address: String

    /// Connects, sets the command timeout, authenticates (when the
    /// configuration has a password) and selects the database.
    init(_ configuration: RedisConfiguration) throws {
        address = "\(configuration.host):\(configuration.port)"
        guard let context = redisConnectWithTimeout(
            configuration.host, Int32(clamping: configuration.port), configuration.connectTimeout.asTimeval)
        else {
            throw RedisError.unreachable("Redis at \(address) is unreachable: out of memory")
        }
        // From here on, a throw still runs deinit, which frees the context.
        self.context = context
        if context.pointee.err != 0 { throw Self.failure(of: context, address: address) }
        // hiredis opens its socket without close-on-exec: a process the app
        // starts would inherit it and keep the connection open after the
        // client closes it.
        _ = fcntl(context.pointee.fd, F_SETFD, FD_CLOEXEC)
        guard redisSetTimeout(context, configuration.commandTimeout.asTimeval) == REDIS_OK else {
            throw Self.failure(of: context, address: address)
        }
        if let password = configuration.password {
            let user = configuration.username.map { [Array($0.utf8)] } ?? []
            _ = try command([Array("AUTH".utf8)] + user + [Array(password.utf8)])
        }
        if configuration.database != 0 {
            _ = try command([Array("SELECT".utf8), Array(String(configuration.database).utf8)])
        }
    }

    deinit {
        redisFree(context)
    }

    /// The socket, for `poll`.
    var fileDescriptor: Int32 { context.pointee.fd }

    /// Whether an idle connection has something to read, which for a
    /// connection with no command in flight means the server closed it
    /// (restarted, or dropped an idle client): better reconnected than used.
    var isStale: Bool {
        var entry = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, 0)
        return ready != 0
    }

    /// Sends one command and waits for its reply. A server error reply throws
    /// ``RedisError/server(_:)`` and leaves the connection usable.
    func command(_ arguments: [[UInt8]]) throws -> RedisReply {
        let raw = Self.withArgv(arguments) { argc, argv, lengths in
            redisCommandArgv(context, argc, argv, lengths)
        }
        guard let raw else { throw Self.failure(of: context, address: address) }
        let reply = raw.assumingMemoryBound(to: redisReply.self)
        defer { freeReplyObject(raw) }
        let converted = RedisReply(reply)
        if case .error(let message) = converted { throw RedisError.server(message) }
        return converted
    }

    /// Queues commands in the output buffer and writes them all out.
    func send(_ commands: [[[UInt8]]]) throws {
        for arguments in commands {
            let status = Self.withArgv(arguments) { argc, argv, lengths in
                redisAppendCommandArgv(context, argc, argv, lengths)
            }
            guard status == REDIS_OK else { throw Self.failure(of: context, address: address) }
        }
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw Self.failure(of: context, address: address) }
        }
    }

    /// Reads what the socket has (call it when `poll` says it is readable).
    func readAvailable() throws {
        guard redisBufferRead(context) == REDIS_OK else { throw Self.failure(of: context, address: address) }
    }

    /// The next complete reply already read, if any (never reads the socket).
    /// Error replies are returned as ``RedisReply/error(_:)``, not thrown.
    func bufferedReply() throws -> RedisReply? {
        var raw: UnsafeMutableRawPointer?
        guard redisGetReplyFromReader(context, &raw) == REDIS_OK else {
            throw Self.failure(of: context, address: address)
        }
        guard let raw else { return nil }
        defer { freeReplyObject(raw) }
        return RedisReply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Calls `body` with hiredis's argc, argv and argvlen for `arguments`
    /// (binary-safe: lengths are passed, so bytes may include zeros).
    private static func withArgv<R>(
        _ arguments: [[UInt8]],
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R
    ) -> R {
        precondition(!arguments.isEmpty, "a Redis command needs at least its name")
        var joined: [UInt8] = []
        joined.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var lengths: [Int] = []
        lengths.reserveCapacity(arguments.count)
        for argument in arguments {
            joined.append(contentsOf: argument)
            lengths.append(argument.count)
        }
        joined.append(0) // so the buffer is never empty
        return joined.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafePointer<CChar>?] = []
            pointers.reserveCapacity(arguments.count)
            var offset = 0
            for length in lengths {
                pointers.append(UnsafePointer(base + offset))
                offset += length
            }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { lengthPointer in
                    body(Int32(arguments.count), argv.baseAddress!, lengthPointer.baseAddress!)
                }
            }
        }
    }

    /// A short, human ``RedisError/unreachable(_:)`` for the context's error
    /// (hiredis's own text is only classified, never shown).
    private static func failure(of context: UnsafeMutablePointer<redisContext>, address: String) -> RedisError {
        let code = context.pointee.err
        let detail = withUnsafeBytes(of: &context.pointee.errstr) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).lowercased()
        }
        let why: String
        if code == REDIS_ERR_EOF || detail.contains("reset") || detail.contains("broken pipe") {
            why = "the connection was closed"
        } else if detail.contains("refused") {
            why = "connection refused"
        } else if detail.contains("timed out") || detail.contains("temporarily unavailable") || detail.contains("in progress") {
            why = "timed out"
        } else if detail.contains("name") || detail.contains("service") || detail.contains("resolv") {
            why = "the host name does not resolve"
        } else if code == REDIS_ERR_PROTOCOL {
            why = "it does not speak the Redis protocol"
        } else if code == REDIS_ERR_OOM {
            why = "out of memory"
        } else {
            why = "the connection failed"
        }
        return .unreachable("Redis at \(address) is unreachable: \(why)")
    }
}
