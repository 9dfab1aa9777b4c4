import Foundation
import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
import napkin
@testable import RibHouse

/// Rib House assembled as `main.swift` assembles it, with a fast pit, and a
/// live server on port 0 when the test asks for one.
@MainActor
final class RibHouseHarness {
    enum Mode: String, CaseIterable, CustomTestStringConvertible {
        case inProcess, live
        var testDescription: String { rawValue }
    }

    /// How often the pit ticks in tests.
    static let pitInterval: Duration = .milliseconds(50)

    /// Rib House's configuration with room to settle: napkin's 2 s default
    /// is too tight under ThreadSanitizer, where a post would answer before
    /// its change is applied.
    static let configuration: NapkinConfiguration = {
        var configuration = RibHouseApp.configuration
        configuration.settleTimeout = .seconds(10)
        // A test client without a stream is a tab nobody views: the 3 s
        // grace would release it between two slow requests of a test.
        configuration.tabGracePeriod = .seconds(60)
        return configuration
    }()

    let ribHouse: RibHouseApp
    private var server: HTTPServer?

    private init(ribHouse: RibHouseApp) {
        self.ribHouse = ribHouse
    }

    /// Builds Rib House; serves it on `127.0.0.1:0` in `.live` mode. With
    /// `ticking` the pit's loop runs; without, only `tick()` moves the pit.
    static func start(_ mode: Mode, ticking: Bool = true) async throws -> RibHouseHarness {
        let harness = RibHouseHarness(ribHouse: RibHouseApp.make(
            configuration: configuration, publicDirectory: nil, pitInterval: pitInterval))
        if mode == .live {
            let server = HTTPServer(configuration: ServerConfiguration(port: 0), responder: harness.ribHouse.router)
            try server.start()
            harness.server = server
        }
        if ticking { await harness.ribHouse.start() } else { await harness.ribHouse.followServices() }
        return harness
    }

    /// The live server's port (`0` in-process).
    var port: Int { server?.port ?? 0 }

    var pitService: PitService { ribHouse.pitService }

    /// A new browser, in the harness's mode; with `javascript: false`, one
    /// without napkin's client.
    func client(javascript: Bool = true) -> TestClient {
        server.map { TestClient(live: $0.port, javascript: javascript) }
            ?? TestClient(inProcess: ribHouse.router, javascript: javascript)
    }

    /// Moves the pit one tick and returns once every subscriber (headers,
    /// boards) has processed it and is waiting for the next.
    @discardableResult
    func tickPit() async -> PitState {
        let (_, report) = await Settlement.run(timeout: .seconds(10)) {
            await pitService.tick()
        }
        #expect(report.settled, "a pit subscriber did not come back for the next tick")
        return await pitService.current
    }

    func stop() async {
        await server?.shutdown()
        await ribHouse.shutdown()
    }
}

/// The five foods every signed-in guest gets, as the page lists them.
let barbecueFoodsHTML = "<li>Brisket</li><li>Pulled Pork</li><li>St. Louis Ribs</li><li>Burnt Ends</li><li>Smoked Sausage</li>"

/// The login form's button.
let loginButton = "Login →"

extension JSONValue {
    /// The elements of an array value (empty for anything else).
    var elements: [JSONValue] {
        if case .array(let values) = self { return values }
        return []
    }

    /// The members of an object value (empty for anything else).
    var members: [String: JSONValue] {
        if case .object(let values) = self { return values }
        return [:]
    }
}
