import Foundation
import Testing
@testable import NapkinHTTP

/// A multipart body from `(name, fileName, type, content)` parts.
func multipartBody(boundary: String, _ parts: [(name: String, fileName: String?, type: String?, content: [UInt8])]) -> [UInt8] {
    var body: [UInt8] = []
    for part in parts {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
        if let fileName = part.fileName { head += "; filename=\"\(fileName)\"" }
        if let type = part.type { head += "\r\nContent-Type: \(type)" }
        body += Array((head + "\r\n\r\n").utf8) + part.content + Array("\r\n".utf8)
    }
    return body + Array("--\(boundary)--\r\n".utf8)
}

let pngBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)

/// A fresh directory for one test's temporary files.
func scratchDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "napkin-spool-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func filesIn(_ directory: String) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
}

@Suite(.timeLimit(.minutes(1))) struct UploadSpoolTests {
    func spool(
        _ directory: String, limits: (inout UploadLimits) -> Void = { _ in }, disk: ByteBudget = ByteBudget(limit: 1 << 30),
        buffers: [ByteBudget] = []
    ) throws -> UploadSpool {
        var upload = UploadLimits(directory: directory)
        limits(&upload)
        return try UploadSpool(boundary: "B", limits: upload, maxFieldBytes: 64, disk: disk, buffers: buffers)
    }

    /// Bytes on disk of the one file in `directory`.
    func bytesOnDisk(_ directory: String) -> Int {
        guard let name = filesIn(directory).first,
              let size = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int else { return -1 }
        return size
    }

    func feed(_ spool: UploadSpool, _ body: [UInt8], piece: Int = 5) -> Bool {
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + piece)
            guard body[offset..<end].withUnsafeBytes({ spool.take($0) }) else { return false }
            offset = end
        }
        return true
    }

    @Test func filesGoToDiskAndAreRemovedAtTheEnd() throws {
        let directory = try scratchDirectory()
        let disk = ByteBudget(limit: 1 << 20)
        let spool = try spool(directory, disk: disk)
        let content = pngBytes + [UInt8](repeating: 7, count: 5000)
        let body = multipartBody(boundary: "B", [("title", nil, nil, Array("Hi".utf8)), ("photo", "../me.png", "image/png", content), ("empty", "", "application/octet-stream", [])])
        #expect(feed(spool, body))
        let form = try spool.finish().get()
        #expect(form.fields.map(\.name) == ["title"])
        #expect(form.fields.map(\.value) == ["Hi"])
        #expect(form.files.count == 1)
        let file = form.files[0].file
        #expect(file.fileName == "me.png")
        #expect(file.declaredType == "image/png")
        #expect(file.size == content.count)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: file.path))) == content)
        #expect(disk.used == content.count)
        #expect(filesIn(directory).count == 1)
        spool.removeFiles()
        #expect(filesIn(directory).isEmpty)
        #expect(disk.used == 0)
    }

    @Test func aRefusedBodyLeavesNoFiles() throws {
        let directory = try scratchDirectory()
        let spool = try spool(directory) { $0.maxFileBytes = 100 }
        let body = multipartBody(boundary: "B", [("a", "a.bin", nil, [UInt8](repeating: 1, count: 50)), ("b", "b.bin", nil, [UInt8](repeating: 1, count: 101))])
        #expect(!feed(spool, body))
        #expect(spool.refusal?.status == .payloadTooLarge)
        #expect(filesIn(directory).isEmpty)
    }

    @Test func aBodyCutShortLeavesNoFilesOnceRemoved() throws {
        let directory = try scratchDirectory()
        let spool = try spool(directory)
        let body = multipartBody(boundary: "B", [("a", "a.bin", nil, [UInt8](repeating: 1, count: 500))])
        #expect(feed(spool, Array(body.prefix(300))))
        #expect(filesIn(directory).count == 1)
        // The client left: the completed callback removes what the request made.
        spool.removeFiles()
        #expect(filesIn(directory).isEmpty)
        let directory2 = try scratchDirectory()
        let cut = try self.spool(directory2)
        #expect(feed(cut, Array(body.dropLast(4))))
        #expect(throws: HTTPError.self) { try cut.finish().get() }
        #expect(filesIn(directory2).isEmpty)
    }

    @Test func limitsOnPartsRequestFieldsAndDisk() throws {
        let directory = try scratchDirectory()
        let parts = try spool(directory) { $0.maxParts = 3 }
        #expect(!feed(parts, multipartBody(boundary: "B", (0..<4).map { ("f\($0)", nil, nil, [1]) })))
        #expect(parts.refusal?.status == .payloadTooLarge)

        let request = try spool(directory) { $0.maxRequestBytes = 200 }
        #expect(!feed(request, multipartBody(boundary: "B", [("a", "a.bin", nil, [UInt8](repeating: 1, count: 300))])))
        #expect(request.refusal?.status == .payloadTooLarge)

        let fields = try spool(directory)
        #expect(!feed(fields, multipartBody(boundary: "B", [("a", nil, nil, [UInt8](repeating: 65, count: 65))])))
        #expect(fields.refusal?.status == .payloadTooLarge)

        let disk = ByteBudget(limit: 100)
        let full = try spool(directory, disk: disk)
        #expect(!feed(full, multipartBody(boundary: "B", [("a", "a.bin", nil, [UInt8](repeating: 1, count: 101))])))
        #expect(full.refusal?.status == .serviceUnavailable)
        #expect(disk.used == 0)

        let head = try spool(directory) { $0.maxPartHeadBytes = 100 }
        #expect(!feed(head, multipartBody(boundary: "B", [(String(repeating: "n", count: 200), nil, nil, [1])])))
        #expect(head.refusal?.status == .badRequest)
        #expect(filesIn(directory).isEmpty)
    }

    /// Feeds a file of a buffer and 10,000 bytes in 1 KiB pieces, then a
    /// short piece; answers the spool, the bytes after that piece, and the
    /// file's content.
    func fileUpToAShortPiece(_ directory: String, buffers: ByteBudget) throws -> (UploadSpool, rest: [UInt8], content: [UInt8]) {
        let buffer = UploadSpool.writeBufferBytes
        let spool = try spool(directory, buffers: [ByteBudget(limit: 1 << 30), buffers])
        let content = pngBytes + (0..<(buffer + 10_000)).map { UInt8(truncatingIfNeeded: $0) }
        let body = multipartBody(boundary: "B", [("photo", "a.png", "image/png", content)])
        let head = body.count - content.count - Array("\r\n--B--\r\n".utf8).count
        // Full pieces: nothing written until a whole buffer is gathered.
        #expect(feed(spool, Array(body.prefix(head)), piece: head))
        #expect(feed(spool, Array(body[head..<(head + 5 * 1024)]), piece: 1024))
        #expect(bytesOnDisk(directory) == 0)
        #expect(buffers.used == buffer)
        #expect(feed(spool, Array(body[(head + 5 * 1024)..<(head + buffer + 5 * 1024)]), piece: 1024))
        #expect(bytesOnDisk(directory) == buffer)
        // A short piece: the client's bytes may have run out for now.
        #expect(feed(spool, Array(body[(head + buffer + 5 * 1024)..<(head + buffer + 5500)]), piece: 1024))
        return (spool, Array(body[(head + buffer + 5500)...]), content)
    }

    /// Feeds `rest` and checks the file read back is `content`, with every buffer given back.
    func finish(_ spool: UploadSpool, rest: [UInt8], content: [UInt8], buffers: ByteBudget, in directory: String) throws {
        #expect(feed(spool, rest, piece: 1024))
        let form = try spool.finish().get()
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: form.files[0].file.path))) == content)
        #expect(buffers.used == 0)
        spool.removeFiles()
        #expect(filesIn(directory).isEmpty)
    }

    @Test func aFileIsWrittenInWholeBuffersKeptAcrossShortPiecesWhileTheBudgetHasRoom() throws {
        let directory = try scratchDirectory()
        let buffers = ByteBudget(limit: 1 << 20)
        let (spool, rest, content) = try fileUpToAShortPiece(directory, buffers: buffers)
        #expect(bytesOnDisk(directory) == UploadSpool.writeBufferBytes)
        #expect(buffers.used == UploadSpool.writeBufferBytes)
        try finish(spool, rest: rest, content: content, buffers: buffers, in: directory)
    }

    @Test func aShortPieceWritesOutAndGivesTheBufferBackWhenBuffersAreScarce() throws {
        let directory = try scratchDirectory()
        // One buffer taken is more than half of this budget.
        let buffers = ByteBudget(limit: UploadSpool.writeBufferBytes * 3 / 2)
        let (spool, rest, content) = try fileUpToAShortPiece(directory, buffers: buffers)
        #expect(bytesOnDisk(directory) == UploadSpool.writeBufferBytes + 5500)
        #expect(buffers.used == 0)
        try finish(spool, rest: rest, content: content, buffers: buffers, in: directory)
    }

    @Test func withoutRoomInTheBudgetBytesAreWrittenAsTheyCome() throws {
        let directory = try scratchDirectory()
        let buffers = ByteBudget(limit: UploadSpool.writeBufferBytes - 1)
        // Room in one budget but not the other: the one is given back.
        let roomy = ByteBudget(limit: 1 << 30)
        let spool = try spool(directory, buffers: [roomy, buffers])
        let content = pngBytes + [UInt8](repeating: 9, count: 20_000)
        let body = multipartBody(boundary: "B", [("photo", "a.png", "image/png", content)])
        #expect(feed(spool, Array(body.prefix(10_000)), piece: 1000))
        #expect(bytesOnDisk(directory) > 9000)
        #expect(buffers.used == 0)
        #expect(roomy.used == 0)
        #expect(feed(spool, Array(body.dropFirst(10_000)), piece: 1000))
        let form = try spool.finish().get()
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: form.files[0].file.path))) == content)
        spool.removeFiles()
    }

    @Test func aRemovedUploadGivesItsBufferBack() throws {
        let directory = try scratchDirectory()
        let buffers = ByteBudget(limit: 1 << 20)
        let spool = try spool(directory, buffers: [ByteBudget(limit: 1 << 30), buffers])
        let body = multipartBody(boundary: "B", [("a", "a.bin", nil, [UInt8](repeating: 1, count: 50_000))])
        #expect(feed(spool, Array(body.prefix(20_000)), piece: 1000))
        #expect(buffers.used == UploadSpool.writeBufferBytes)
        // The client left mid-way.
        spool.removeFiles()
        #expect(buffers.used == 0)
        #expect(filesIn(directory).isEmpty)
    }
}
