import Foundation
import NapkinHTTP
import NapkinWeb

/// An app's `main`: reads the command line, builds the app, serves it until
/// SIGINT or SIGTERM, then drains and stops, so that every napkin app takes
/// the same flags and leaves the same way.
///
/// ```swift
/// // main.swift
/// import NapkinServe
///
/// await ServeCommand("Smokehouse").run(configuration: Smokehouse.configuration) { setup in
///     Smokehouse(configuration: setup.configuration)
/// }
/// ```
///
/// napkin's flags, also listed by `--help`:
/// - `--host H`, `--port P` (or `PORT`): where to listen, `127.0.0.1:8080`
///   by default;
/// - `--public DIR`: where the app's static files are
///   (``ServeOptions/publicDirectory``, for the app to mount);
/// - `--no-access-log`, `--log-format text|json`: the access log, which
///   the command puts around the app's router (the app adds none);
/// - `--new-session-timeout SECONDS`, `--tab-grace SECONDS`: napkin's
///   timeouts;
/// - `--public-origin URL` (or `PUBLIC_ORIGIN`), `--trusted-proxy ADDRESS`
///   (repeatable): behind a proxy. With proxies trusted, the per-address
///   connection limit is off, since every connection comes from a proxy;
/// - `--redis URL` (or `REDIS_URL`), `--redis-key SECRET` (or `REDIS_KEY`):
///   sessions, messages and leases in Redis, shared by every process;
/// - `--drain-timeout SECONDS`: how long SIGTERM waits for requests in
///   flight, 10 by default;
/// - `--metrics-port P`, `--metrics-host H`, `--metrics-token TOKEN` (or
///   `METRICS_TOKEN`): `/metrics` and napkin's dashboard.
///
/// A refused command line exits with status 2 and the reason; a listener
/// that cannot open, with status 1.
public struct ServeCommand: Sendable {
    /// The program's name, as messages and the usage text begin.
    public let name: String
    /// What the ready line calls the app: "`title` on http://…".
    public let title: String
    /// The flags the app takes besides napkin's.
    public let appFlags: [ServeFlag]

    /// A command for the program `name`, announced as `title` (`name` by
    /// default), that takes `flags` besides napkin's own. An app's flag
    /// must not reuse one of napkin's names.
    public init(_ name: String, title: String? = nil, flags: [ServeFlag] = []) {
        let taken = Set(ServeFlag.builtIn.map(\.name) + ["-h"])
        precondition(flags.allSatisfy { !taken.contains($0.name) }, "an app's flag reuses one of napkin's names")
        self.name = name
        self.title = title ?? name
        appFlags = flags
    }

    /// The usage text `--help` prints: a line per flag, the app's last.
    public var usage: String {
        let flags = ServeFlag.builtIn + appFlags
        let width = flags.map(\.synopsis.count).max() ?? 0
        let lines = flags.map { flag in
            "  " + flag.synopsis + String(repeating: " ", count: width - flag.synopsis.count + 2) + flag.help
        }
        return (["usage: \(name) [options]"] + lines).joined(separator: "\n")
    }

    /// Reads the options, builds the app with `build`, and serves it until
    /// SIGINT or SIGTERM. Then `/readyz` turns 503, the listener closes,
    /// every event stream is told to reconnect elsewhere, requests in flight
    /// finish within `--drain-timeout`, and the app shuts down.
    ///
    /// `configuration` is the app's own; the options are applied to it.
    /// `build` may throw ``ServeOptions/Invalid`` for a bad value of one
    /// of the app's flags, which is reported like napkin's own.
    @MainActor
    public func run<App: ServedApp>(
        configuration: NapkinConfiguration,
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        _ build: @MainActor (ServeSetup) async throws -> App
    ) async {
        let options: ServeOptions
        do {
            options = try ServeOptions(arguments: arguments, environment: environment, appFlags: appFlags)
        } catch {
            refuse(error)
        }
        if options.showHelp {
            print(usage)
            exit(0)
        }
        let setup = ServeSetup(options: options, configuration: configuration)
        if let warning = setup.redisWarning { say(warning) }
        let served: App
        do {
            served = try await build(setup)
        } catch let error as ServeOptions.Invalid {
            refuse(error)
        } catch {
            fail(error)
        }
        let listeners = Listeners(options: options, setup: setup, app: served, router: Self.router(of: served, setup: setup))
        do {
            try listeners.start()
        } catch {
            fail(error)
        }
        await served.start()
        // Written unbuffered: scripts that start the app wait for this line.
        FileHandle.standardOutput.write(Data("\(title) on http://\(options.host):\(listeners.server.port)\n".utf8))
        let app = served.app
        do {
            try await listeners.server.runUntilSignalled { await app.drain() }
        } catch {
            fail(error)
        }
        await listeners.shutdown()
        await served.shutdown()
        await setup.shutdown()
        // The access log is written in batches: write out the last lines.
        AccessLog.flushStandardError()
    }

    /// The app's router, inside the access log unless `--no-access-log`.
    @MainActor static func router(of served: some ServedApp, setup: ServeSetup) -> HTTPRouter {
        var router = served.router
        if setup.options.accessLog {
            router.useOutermost(AccessLog(format: setup.configuration.logFormat, requestIDs: setup.configuration.requestIDs))
        }
        return router
    }

    private func say(_ message: String) {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
    }

    private func refuse(_ error: ServeOptions.Invalid) -> Never {
        say("\(error)\n\(usage)")
        exit(2)
    }

    private func fail(_ error: any Error) -> Never {
        say("\(error)")
        exit(1)
    }
}
