import Foundation
import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct UploadServerTests {
    struct Post: Decodable {
        var title: String
        var photo: UploadedFile
    }

    static func router() -> HTTPRouter {
        var router = HTTPRouter()
        router.post("/upload") { request in
            let post = try request.decode(Post.self)
            try post.photo.requireType([.png, .jpeg])
            let content = try Data(contentsOf: URL(fileURLWithPath: post.photo.path))
            return .text("\(post.title)|\(post.photo.fileName)|\(post.photo.size)|\(content.count)|\(post.photo.path)")
        }
        router.get("/exists") { request in
            .text(FileManager.default.fileExists(atPath: request.query["path"] ?? "") ? "yes" : "no")
        }
        return router
    }

    static func configuration(_ directory: String, _ change: (inout UploadLimits) -> Void = { _ in }) -> ServerConfiguration {
        var limits = UploadLimits(directory: directory)
        change(&limits)
        return ServerConfiguration(uploads: limits)
    }

    static let boundary = "----napkinTestBoundary"
    static var headers: [(String, String)] { [("Content-Type", "multipart/form-data; boundary=\(boundary)")] }

    @Test func fileIsDecodedAndRemovedWhenTheRequestEnds() async throws {
        let directory = try scratchDirectory()
        let content = pngBytes + [UInt8](repeating: 0x42, count: 200_000)
        let body = multipartBody(boundary: Self.boundary, [("title", nil, nil, Array("Hi".utf8)), ("photo", "../../x.png", "image/png", content)])
        try await withServer(Self.router(), configuration: Self.configuration(directory)) { server in
            try await offPool {
                let connection = try TestConnection(port: server.port)
                let reply = try connection.request("POST", "/upload", headers: Self.headers, body: body)
                #expect(reply.status == 200)
                let answer = reply.text.split(separator: "|").map(String.init)
                #expect(Array(answer.prefix(4)) == ["Hi", "x.png", "\(content.count)", "\(content.count)"])
                #expect(answer.last?.hasPrefix(directory) == true)
                // The next request on the connection starts after the first completed.
                let check = try connection.request("GET", "/exists?path=\(answer.last ?? "")")
                #expect(check.text == "no")
                #expect(filesIn(directory).isEmpty)
            }
        }
    }

    @Test func aTypeLieIsRefusedAndLeavesNothing() async throws {
        let directory = try scratchDirectory()
        let body = multipartBody(boundary: Self.boundary, [("title", nil, nil, Array("Hi".utf8)), ("photo", "x.png", "image/png", Array("<html><script>alert(1)</script>".utf8))])
        try await withServer(Self.router(), configuration: Self.configuration(directory)) { server in
            try await offPool {
                let connection = try TestConnection(port: server.port)
                let reply = try connection.request("POST", "/upload", headers: Self.headers, body: body)
                #expect(reply.status == 415)
                #expect(try connection.request("GET", "/exists?path=/").status == 200)
                #expect(filesIn(directory).isEmpty)
            }
        }
    }

    @Test func limitsAnswerClearly() async throws {
        let directory = try scratchDirectory()
        let configuration = Self.configuration(directory) {
            $0.maxFileBytes = 1000
            $0.maxRequestBytes = 4000
            $0.maxParts = 5
        }
        try await withServer(Self.router(), configuration: configuration) { server in
            // Announced past the request limit: refused from the head.
            let announced = try await offPool {
                let connection = try TestConnection(port: server.port)
                try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1073741824\r\n\r\n")
                return try connection.readReply()
            }
            #expect(announced.status == 413)
            let file = multipartBody(boundary: Self.boundary, [("title", nil, nil, [65]), ("photo", "a.png", "image/png", pngBytes + [UInt8](repeating: 0, count: 1000))])
            #expect(try await fetch(server.port, "POST", "/upload", headers: Self.headers, body: file).status == 413)
            let bomb = multipartBody(boundary: Self.boundary, (0..<50).map { ("f\($0)", nil, nil, [65]) })
            let bombed = try await fetch(server.port, "POST", "/upload", headers: Self.headers, body: bomb)
            #expect(bombed.status == 413)
            #expect(bombed.text.contains("at most 5 parts"))
            let cut = Array(multipartBody(boundary: Self.boundary, [("photo", "a.png", "image/png", pngBytes)]).dropLast(8))
            #expect(try await fetch(server.port, "POST", "/upload", headers: Self.headers, body: cut).status == 400)
            let badBoundary = [("Content-Type", "multipart/form-data; boundary=\(String(repeating: "x", count: 80))")]
            #expect(try await fetch(server.port, "POST", "/upload", headers: badBoundary, body: [1]).status == 400)
        }
        #expect(filesIn(directory).isEmpty)
    }

    /// Clients that send their last bytes and hang up at once: libmicrohttpd
    /// on epoll can read those bytes and miss the end that came with them.
    /// Their files go as they leave, not at the idle timeout (an hour here).
    @Test func clientsLeavingMidUploadLeaveNoFiles() async throws {
        let directory = try scratchDirectory()
        let count = 20
        let body = multipartBody(boundary: Self.boundary, [("photo", "a.png", "image/png", pngBytes + [UInt8](repeating: 1, count: 100_000))])
        var head = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=\(Self.boundary)\r\n"
        head += "Content-Length: \(body.count)\r\n\r\n"
        var configuration = Self.configuration(directory)
        configuration.connectionTimeout = .seconds(3600)
        try await withServer(Self.router(), configuration: configuration) { [head] server in
            let connections = try await offPool {
                try (0..<count).map { _ in
                    let connection = try TestConnection(port: server.port)
                    try connection.send(Array(head.utf8) + body.prefix(60_000))
                    return connection
                }
            }
            // Waits on the file system, which is all there is to see: a
            // file appears once the server has read its part's head.
            try await within(seconds: 10) {
                while filesIn(directory).count < count { try await Task.sleep(for: .milliseconds(10)) }
            }
            try await offPool {
                for connection in connections {
                    try connection.send(Array(body[60_000..<60_100]))
                    connection.close()
                }
            }
            try await within(seconds: 10) {
                while !filesIn(directory).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            }
        }
        #expect(filesIn(directory).isEmpty)
    }
}
