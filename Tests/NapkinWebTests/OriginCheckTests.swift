import NapkinHTTP
import Testing
@testable import NapkinWeb

/// Which `Origin` a form post may come from, directly and behind a proxy.
@Suite("Origin check behind proxies", .timeLimit(.minutes(1)))
struct OriginCheckTests {
    static func post(host: String = "backend", peer: String = "127.0.0.1:40000", _ extra: HTTPHeaders = [:]) -> Request {
        var headers: HTTPHeaders = ["Host": host]
        for (name, value) in extra { headers[name] = value }
        return Request(method: .post, path: "/_napkin/action", headers: headers, peer: peer)
    }

    @Test("a configured public origin is the only origin accepted, whatever Host the proxy sent")
    func publicOrigin() {
        let configuration = NapkinConfiguration(publicOrigin: "https://RibHouse.example/")
        #expect(OriginCheck.accepts("https://ribhouse.example", request: Self.post(), configuration: configuration))
        #expect(!OriginCheck.accepts("http://ribhouse.example", request: Self.post(), configuration: configuration))
        #expect(!OriginCheck.accepts("http://backend", request: Self.post(), configuration: configuration))
        #expect(!OriginCheck.accepts("https://evil.example", request: Self.post(), configuration: configuration))
    }

    @Test("X-Forwarded-Host and -Proto count from a trusted proxy only")
    func forwardedHeaders() {
        let configuration = NapkinConfiguration(trustedProxies: ["127.0.0.1", "::1"])
        let forwarded: HTTPHeaders = ["X-Forwarded-Host": "ribhouse.example, inner", "X-Forwarded-Proto": "https"]
        #expect(OriginCheck.accepts("https://ribhouse.example", request: Self.post(forwarded), configuration: configuration))
        #expect(OriginCheck.accepts(
            "https://ribhouse.example", request: Self.post(peer: "[::1]:5000", forwarded), configuration: configuration))
        #expect(!OriginCheck.accepts("http://backend", request: Self.post(forwarded), configuration: configuration))
        // From anyone else the forwarded headers are ignored: Host decides.
        let stranger = Self.post(host: "127.0.0.1:8080", peer: "10.0.0.9:1234", forwarded)
        #expect(!OriginCheck.accepts("https://ribhouse.example", request: stranger, configuration: configuration))
        #expect(OriginCheck.accepts("http://127.0.0.1:8080", request: stranger, configuration: configuration))
        // Without trusted proxies they are ignored too.
        #expect(!OriginCheck.accepts("https://ribhouse.example", request: Self.post(forwarded), configuration: NapkinConfiguration()))
    }
}
