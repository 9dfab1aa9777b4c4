import Foundation
import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct UploadedFileTests {
    func file(_ name: String = "a.png", type: String = "image/png", leading: [UInt8] = pngBytes) -> UploadedFile {
        UploadedFile(fileName: name, declaredType: type, size: leading.count, path: "/nonexistent", leadingBytes: leading)
    }

    @Test func fileNamesAreSanitized() {
        #expect(UploadedFile.sanitized("../../etc/passwd") == "passwd")
        #expect(UploadedFile.sanitized("C:\\Users\\me\\photo.jpg") == "photo.jpg")
        #expect(UploadedFile.sanitized("a\u{0}b\r\n.png") == "ab.png")
        #expect(UploadedFile.sanitized("..") == "")
        #expect(UploadedFile.sanitized("dir/") == "")
        #expect(UploadedFile.sanitized(String(repeating: "é", count: 200)).utf8.count <= 255)
    }

    @Test func declaredTypeIsCheckedAgainstTheFirstBytes() throws {
        #expect(try file().requireType([.jpeg, .png]) == .png)
        #expect(try file(type: "image/jpeg", leading: [0xFF, 0xD8, 0xFF, 0xE0]).requireType([.jpeg, .png]) == .jpeg)
        // An HTML page named and declared as PNG.
        let lie = file("x.png", leading: Array("<html><script>".utf8))
        #expect(throws: HTTPError.self) { try lie.requireType([.jpeg, .png]) }
        // A PNG declared as a type the action does not take.
        #expect(throws: HTTPError.self) { try file(type: "image/svg+xml").requireType([.jpeg, .png]) }
        // Too short to carry the signature.
        #expect(throws: HTTPError.self) { try file(leading: [0x89, 0x50]).requireType([.png]) }
    }

    struct Post: Decodable {
        var title: String
        var photo: UploadedFile?
        var extras: [UploadedFile]
    }

    @Test func decodesFromTheFormOnly() throws {
        let photo = file()
        let post = try FormDecoder().decode(Post.self, fields: [("title", "Hi")], files: [("photo", photo), ("extras", photo), ("extras", photo)])
        #expect(post.title == "Hi")
        #expect(post.photo == photo)
        #expect(post.extras.count == 2)
        let without = try FormDecoder().decode(Post.self, fields: [("title", "Hi")])
        #expect(without.photo == nil)
        // A text field never becomes a file, nor does JSON naming a path.
        #expect(throws: (any Error).self) { try FormDecoder().decode(Post.self, fields: [("title", "Hi"), ("photo", "/etc/passwd")]) }
        let json = Array(#"{"title":"x","extras":[],"photo":{"fileName":"a","declaredType":"image/png","size":1,"path":"/etc/passwd"}}"#.utf8)
        let request = Request(method: .post, path: "/", headers: ["Content-Type": "application/json"], body: json)
        #expect(throws: HTTPError.self) { try request.decode(Post.self) }
    }

    @Test func requestDecodesItsMultipartForm() throws {
        var request = Request(method: .post, path: "/", headers: ["Content-Type": "multipart/form-data; boundary=x"])
        #expect(throws: HTTPError.self) { try request.formFields() }
        request.multipart = MultipartForm(fields: [("title", "Hi")], files: [("photo", file())])
        #expect(try request.formFields().map(\.value) == ["Hi"])
        #expect(try request.decode(Post.self).photo?.fileName == "a.png")
    }

    @Test func moveKeepsTheContent() throws {
        let directory = try scratchDirectory()
        let source = directory + "/source"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: source))
        let kept = UploadedFile(fileName: "x", declaredType: "application/octet-stream", size: 3, path: source, leadingBytes: [1, 2, 3])
        try kept.move(to: directory + "/kept")
        #expect(filesIn(directory) == ["kept"])
        #expect(throws: HTTPError.self) { try kept.move(to: directory + "/again") }
    }
}
