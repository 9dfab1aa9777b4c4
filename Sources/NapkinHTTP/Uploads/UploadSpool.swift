#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One request's `multipart/form-data` body on its way in: the parser's
/// events become text fields (in memory, bounded) and temporary files
/// (written as their bytes arrive). The request owns the files: whoever ends
/// the request calls ``removeFiles()``.
///
/// A file's bytes are gathered into a write buffer of ``writeBufferBytes``
/// and written whole, rather than written once per read of the connection
/// (a few KiB with libmicrohttpd's small connection pool). The buffer is
/// taken from the server's body budget and from its budget for write
/// buffers (a few MiB, so many uploads at once cost little memory) while a
/// file is being written; without room in either, bytes are written as
/// they come. While more than half of a budget is taken, a piece of body
/// smaller than the largest so far (the client's bytes may have run out for
/// now) writes what is buffered and gives the buffer back, so that stalled
/// uploads do not keep the buffers others need. With room to spare the
/// buffer is kept: libmicrohttpd's reads come short now and then at full
/// speed too, and handing the buffer back each time costs a write, a free
/// and an allocation.
///
/// A class, used only holding its request's lock: the request's state keeps
/// a reference, so the requests that bring no upload (an event stream held
/// for hours among them) do not carry the spool's few hundred bytes.
final class UploadSpool {
    private enum Part {
        case field(name: String, value: [UInt8])
        /// A file being written to ``file``, its size and first bytes so far
        /// in ``fileSize`` and ``leading``: a piece of content changes those,
        /// and reads none of this payload.
        case file(head: MultipartPartHead, path: String)
        /// A file input left empty: no name, no bytes.
        case skipped
    }

    /// Nil only while it parses (so that its events can change the rest).
    private var parser: MultipartParser?
    let limits: UploadLimits
    /// The most bytes of text fields, together.
    let maxFieldBytes: Int
    /// Bytes on disk, counted against this budget.
    private let disk: ByteBudget
    /// Where a write buffer is taken from, each of them; none: no buffer.
    private let buffers: [ByteBudget]
    /// The current file's bytes not yet written; empty capacity while no buffer is held.
    private var pending: [UInt8] = []
    /// Whether ``writeBufferBytes`` are taken from each of `buffers`.
    private var holdsBuffer = false
    /// The largest piece of body taken so far (a full read of the connection).
    private var largestPiece = 0
    private var current: Part?
    /// The current file's descriptor; -1 when no file is open.
    private var file: Int32 = -1
    /// The current file's bytes so far.
    private var fileSize = 0
    /// The current file's first bytes, for ``FileType`` to sniff.
    private var leading: [UInt8] = []
    private(set) var form = MultipartForm()
    /// Every temporary file made, kept or not, to remove at the end.
    private var paths: [String] = []
    private var parts = 0
    private var received = 0
    private(set) var fieldBytes = 0
    private var diskReserved = 0
    /// Why the body was refused, once it was; nothing more is kept after.
    private(set) var refusal: HTTPError?

    /// Bytes a file gathers before they are written: whole pages, few writes.
    static let writeBufferBytes = 64 * 1024

    /// A spool for a body whose boundary is `boundary`, its write buffers
    /// taken from each of `buffers`; throws `400` for a bad boundary.
    init(boundary: String, limits: UploadLimits, maxFieldBytes: Int, disk: ByteBudget, buffers: [ByteBudget] = []) throws(HTTPError) {
        do { parser = try MultipartParser(boundary: boundary, maxHeadBytes: limits.maxPartHeadBytes) } catch {
            throw HTTPError(.badRequest, "Malformed multipart body: \(error.reason)")
        }
        self.limits = limits
        self.maxFieldBytes = maxFieldBytes
        self.disk = disk
        self.buffers = buffers
    }

    /// Bytes this body holds in memory now: its text fields.
    var heldBytes: Int { fieldBytes }

    /// Takes the next piece of the body; whether it is still accepted (once
    /// refused, its files are already gone and ``refusal`` says why).
    func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard refusal == nil else { return false }
        received += bytes.count
        guard received <= limits.maxRequestBytes else {
            return refuse(HTTPError(.payloadTooLarge, "Payload Too Large: the most an upload may bring is \(limits.maxRequestBytes) bytes"))
        }
        guard var parser = parser.take() else { return false }
        defer { self.parser = parser }
        largestPiece = max(largestPiece, bytes.count)
        do {
            try parser.feed(bytes) { event in try self.handle(event) }
            if bytes.count < largestPiece, holdsBuffer, buffersAreScarce, file >= 0 {
                try flush(to: file)
                dropBuffer()
            }
        } catch let error as HTTPError {
            return refuse(error)
        } catch let error as MultipartParser.Malformed {
            return refuse(HTTPError(.badRequest, "Malformed multipart body: \(error.reason)"))
        } catch {
            return refuse(HTTPError(.badRequest, "Malformed multipart body"))
        }
        return true
    }

    /// Ends the body: the form, or why it was refused (its files then gone).
    func finish() -> Result<MultipartForm, HTTPError> {
        if let refusal { return .failure(refusal) }
        do { try parser?.finish() } catch {
            _ = refuse(HTTPError(.badRequest, "Malformed multipart body: \(error.reason)"))
            return .failure(refusal!)
        }
        return .success(form)
    }

    /// Closes and removes every temporary file this body made, and gives
    /// back what they counted against the disk budget, and its write buffer.
    func removeFiles() {
        if file >= 0 { close(file) }
        file = -1
        current = nil
        dropBuffer()
        for path in paths { unlink(path) }
        paths = []
        disk.release(diskReserved)
        diskReserved = 0
    }

    /// Refuses the body for `error`: its files go at once, and nothing more is kept.
    @discardableResult
    func refuse(_ error: HTTPError) -> Bool {
        refusal = error
        removeFiles()
        form = MultipartForm()
        return false
    }

    private func handle(_ event: MultipartParser.Event) throws {
        switch event {
        case .begin(let head):
            parts += 1
            guard parts <= limits.maxParts else {
                throw HTTPError(.payloadTooLarge, "Payload Too Large: an upload may have at most \(limits.maxParts) parts")
            }
            if let fileName = head.fileName {
                current = try open(head, fileName: fileName)
            } else {
                current = .field(name: head.name, value: [])
            }
        case .content(let bytes) where file >= 0:
            fileSize += bytes.count
            guard fileSize <= limits.maxFileBytes else {
                throw HTTPError(.payloadTooLarge, "Payload Too Large: a file may have at most \(limits.maxFileBytes) bytes")
            }
            guard disk.reserve(bytes.count) else {
                throw HTTPError(.serviceUnavailable, "Service Unavailable: too many uploads in progress, try again shortly")
            }
            diskReserved += bytes.count
            if leading.count < FileType.sniffedBytes {
                leading.append(contentsOf: bytes.prefix(FileType.sniffedBytes - leading.count))
            }
            try store(bytes, to: file)
        case .content(let bytes):
            switch current {
            case .field(let name, var value):
                fieldBytes += bytes.count
                guard fieldBytes <= maxFieldBytes else {
                    throw HTTPError(.payloadTooLarge, "Payload Too Large: an upload's text fields may hold at most \(maxFieldBytes) bytes")
                }
                current = nil
                value.append(contentsOf: bytes)
                current = .field(name: name, value: value)
            case .skipped:
                guard bytes.isEmpty else {
                    throw HTTPError(.badRequest, "Malformed multipart body: a file without a name has content")
                }
            case .file, nil:
                break
            }
        case .end:
            switch current {
            case .field(let name, let value):
                form.fields.append((name, String(decoding: value, as: UTF8.self)))
            case .file(let head, let path):
                try flush(to: file)
                dropBuffer()
                close(file)
                file = -1
                let uploaded = UploadedFile(
                    fileName: head.fileName ?? "", declaredType: head.contentType, size: fileSize, path: path, leadingBytes: leading)
                form.files.append((head.name, uploaded))
            case .skipped, nil:
                break
            }
            current = nil
        }
    }

    /// A new temporary file for a file part; an empty file input (no file
    /// name) makes none.
    private func open(_ head: MultipartPartHead, fileName: String) throws -> Part {
        if fileName.isEmpty { return .skipped }
        var template = Array("\(limits.directory)/napkin-upload-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw HTTPError(.serviceUnavailable, "Service Unavailable: the upload could not be stored")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        file = descriptor
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        paths.append(path)
        fileSize = 0
        leading = []
        return .file(head: head, path: path)
    }

    /// Writes `bytes` to the current file through the write buffer, taking
    /// one if there is room in the budget; whole buffers are written as they fill.
    private func store(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        if !holdsBuffer, !buffers.isEmpty, bytes.count < Self.writeBufferBytes, reserveBuffer() {
            holdsBuffer = true
            pending.reserveCapacity(Self.writeBufferBytes)
        }
        guard holdsBuffer else { return try Self.append(bytes, to: descriptor) }
        var rest = bytes
        while !rest.isEmpty {
            let taken = min(Self.writeBufferBytes - pending.count, rest.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<taken]))
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            if pending.count == Self.writeBufferBytes { try flush(to: descriptor) }
        }
    }

    /// Writes what the buffer holds.
    private func flush(to descriptor: Int32) throws {
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBytes { try Self.append($0, to: descriptor) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Frees the write buffer (its bytes written or not wanted) and gives it back to the budget.
    private func dropBuffer() {
        guard holdsBuffer else { return }
        pending = []
        holdsBuffer = false
        for budget in buffers { budget.release(Self.writeBufferBytes) }
    }

    /// Whether more than half of a budget the write buffers come from is taken.
    private var buffersAreScarce: Bool {
        buffers.contains { $0.used > $0.limit / 2 }
    }

    /// Takes a buffer from every budget, or from none.
    private func reserveBuffer() -> Bool {
        for (index, budget) in buffers.enumerated() where !budget.reserve(Self.writeBufferBytes) {
            for taken in buffers[..<index] { taken.release(Self.writeBufferBytes) }
            return false
        }
        return true
    }

    private static func append(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw HTTPError(.serviceUnavailable, "Service Unavailable: the upload could not be stored")
            }
            offset += written
        }
    }
}
