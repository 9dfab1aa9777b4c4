import Testing
@testable import NapkinHTTP

/// Body decoding through a real server: the status codes a client actually sees.
@Suite(.timeLimit(.minutes(1))) struct BodyDecodingTests {
    struct Signup: Codable { var email: String; var age: Int }

    static func router() -> HTTPRouter {
        var router = HTTPRouter()
        router.post("/signup") { request in
            let signup = try request.decode(Signup.self)
            return .text("\(signup.email) \(signup.age)")
        }
        router.post("/json-only") { request in
            let signup = try request.decodeJSON(Signup.self)
            return .text("\(signup.email) \(signup.age)")
        }
        router.post("/size") { request in .text("\(request.body.count)") }
        return router
    }

    static let small = ServerConfiguration(maxRequestBodySize: 1024)

    @Test func formAndJSONDecode() async throws {
        try await withServer(Self.router(), configuration: Self.small) { server in
            let form = try await fetch(server.port, "POST", "/signup", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("email=a%40b.c&age=30".utf8))
            #expect(form.status == 200)
            #expect(form.text == "a@b.c 30")
            let json = try await fetch(server.port, "POST", "/signup", headers: [("Content-Type", "application/json; charset=utf-8")], body: Array(#"{"email":"x@y.z","age":7}"#.utf8))
            #expect(json.status == 200)
            #expect(json.text == "x@y.z 7")
        }
    }

    @Test(arguments: [
        ("application/json", #"{"email": "#, 400),
        ("application/json", #"{"email":"a","age":"old"}"#, 400),
        ("application/x-www-form-urlencoded", "email=a&age=%G1", 400),
        ("application/x-www-form-urlencoded", "email=a", 400),
        ("text/plain", "email=a&age=1", 415),
        ("", "email=a&age=1", 415),
    ])
    func malformedAndUnsupported(contentType: String, body: String, status: Int) async throws {
        try await withServer(Self.router(), configuration: Self.small) { server in
            let headers = contentType.isEmpty ? [] : [("Content-Type", contentType)]
            let reply = try await fetch(server.port, "POST", "/signup", headers: headers, body: Array(body.utf8))
            #expect(reply.status == status)
            #expect(reply.text.count < 120)
            #expect(!reply.text.isEmpty)
        }
    }

    @Test(arguments: [
        ("application/json; charset=utf-8", #"{"email":"x@y.z","age":7}"#, 200),
        ("Application/JSON", #"{"email":"x@y.z","age":7}"#, 200),
        ("application/json", #"{"email":"x@y.z"}"#, 400),
        ("application/x-www-form-urlencoded", "email=a%40b.c&age=30", 415),
        ("text/plain", #"{"email":"x@y.z","age":7}"#, 415),
        ("multipart/form-data; boundary=x", "--x--", 415),
        ("application/jsonx", #"{"email":"x@y.z","age":7}"#, 415),
        ("", #"{"email":"x@y.z","age":7}"#, 415),
    ])
    func jsonOnlyRoutesRefuseWhatAnotherSiteCanPost(contentType: String, body: String, status: Int) async throws {
        try await withServer(Self.router(), configuration: Self.small) { server in
            let headers = contentType.isEmpty ? [] : [("Content-Type", contentType)]
            let reply = try await fetch(server.port, "POST", "/json-only", headers: headers, body: Array(body.utf8))
            #expect(reply.status == status)
            if status == 200 { #expect(reply.text == "x@y.z 7") }
            if status == 415 { #expect(reply.text.contains("application/json")) }
        }
    }

    @Test func bodyAtTheLimitIsAcceptedAndOverIs413() async throws {
        try await withServer(Self.router(), configuration: Self.small) { server in
            let fits = try await fetch(server.port, "POST", "/size", body: [UInt8](repeating: 65, count: 1024))
            #expect(fits.status == 200)
            #expect(fits.text == "1024")
            let announced = try await fetch(server.port, "POST", "/size", body: [UInt8](repeating: 65, count: 1025))
            #expect(announced.status == 413)
        }
    }

    @Test func chunkedUploadOverTheLimitIs413() async throws {
        try await withServer(Self.router(), configuration: Self.small) { server in
            let reply = try await offPool {
                let connection = try TestConnection(port: server.port)
                var text = "POST /size HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                for _ in 0..<4 { text += "200\r\n" + String(repeating: "B", count: 512) + "\r\n" }
                text += "0\r\n\r\n"
                try connection.send(text)
                return try connection.readReply()
            }
            #expect(reply.status == 413)
        }
    }
}
