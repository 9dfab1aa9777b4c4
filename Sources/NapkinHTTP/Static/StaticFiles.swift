import Foundation
@_spi(Napkin) import NapkinSupport

/// Serves files from one directory (an app's `Public/`), safely.
///
/// Sends `Content-Type`, `ETag`, `Last-Modified` and `Cache-Control`, answers
/// `If-None-Match` / `If-Modified-Since` with 304, handles `HEAD`, and serves
/// one byte range (`Range`, `If-Range`) with 206, or 416 when it selects
/// nothing. Small files are kept in memory; large ones are sent from disk by
/// the kernel. It never
/// lists directories and never leaves its root: `..`, encoded separators
/// (`%2f`, `%5c`), backslashes, NUL, dot-files and symlinks that resolve outside
/// the root all answer 404. Small files are kept in memory and revalidated
/// against the file system at most once a second (`revalidateAfter`).
///
/// Mounted on a wildcard route (`/assets/*`) it serves the wildcard's match;
/// used as a fallback it serves the request path.
public struct StaticFiles: HTTPResponder {
    private let root: String
    private let cacheControl: String
    private let cache: FileCache
    /// How many paths the file cache holds (for tests of its bound).
    var cachedEntryCount: Int { cache.count }

    /// Files under `directory`, sent with the given `Cache-Control`. A file
    /// kept in memory is checked against the file system (one `stat`) at
    /// most once per `revalidateAfter` (`.zero`: on every request), so a
    /// changed file is served within that long.
    public init(directory: String, cacheControl: String = "public, max-age=300", revalidateAfter: Duration = .seconds(1)) {
        self.init(directory: directory, cacheControl: cacheControl, revalidateAfter: revalidateAfter, clock: { ContinuousClock.now })
    }

    /// As above, reading the time from `clock` (tests move it by hand).
    init(directory: String, cacheControl: String = "public, max-age=300", revalidateAfter: Duration,
         clock: @escaping @Sendable () -> ContinuousClock.Instant) {
        let resolved = directory.withCString { realpath($0, nil) }.map { p in defer { free(p) }; return String(cString: p) }
        self.root = resolved ?? directory
        self.cacheControl = cacheControl
        self.cache = FileCache(revalidateAfter: revalidateAfter, clock: clock)
    }

    /// The file's response at once, or `HTTPError(.notFound)` on a miss.
    public func answer(_ request: Request) -> Answer {
        guard let response = lookup(request) else { return .immediate(.failure(HTTPError(.notFound))) }
        return .now(response)
    }

    /// The file's response, or nil when there is no such (servable) file.
    /// It is marked as a static file's, so ``AccessLog`` adds no per-request
    /// header to it.
    public func lookup(_ request: Request) -> Response? {
        var response = fileResponse(request)
        response?.isStaticFile = true
        return response
    }

    private func fileResponse(_ request: Request) -> Response? {
        guard request.method == .get || request.method == .head else { return nil }
        guard let relative = safeRelativePath(request) else { return nil }
        guard let file = cache.file(relative: relative, root: root, cacheControl: cacheControl) else { return nil }

        if request.headers.contains("If-None-Match") {
            if request.ifNoneMatch(file.etag) {
                return Response(status: .notModified, headers: file.validators)
            }
        } else if let since = request.headers["If-Modified-Since"], let date = HTTPDate.parse(since), file.mtime <= date {
            return Response(status: .notModified, headers: file.validators)
        }
        switch rangeRequest(request, file: file) {
        case .whole:
            return wholeFile(file, head: request.method == .head)
        case .partial(let range):
            var headers = file.headers
            headers.add(name: "Content-Range", value: "bytes \(range.lowerBound)-\(range.upperBound)/\(file.size)")
            let length = range.count
            if request.method == .head {
                headers.add(name: "Content-Length", value: String(length))
                return Response(status: .partialContent, headers: headers)
            }
            if let bytes = file.bytes {
                return Response(status: .partialContent, headers: headers, body: .bytes(Array(bytes[range])))
            }
            guard let region = FileRegion(path: file.resolved, offset: range.lowerBound, length: length) else { return nil }
            return Response(status: .partialContent, headers: headers, body: .file(region))
        case .unsatisfiable:
            var headers = file.validators
            headers.add(name: "Content-Range", value: "bytes */\(file.size)")
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
    }

    /// The range to send: the `Range` field's, unless an `If-Range` names
    /// another version of the file (then the whole new version).
    private func rangeRequest(_ request: Request, file: StaticFile) -> ByteRangeRequest {
        guard let range = request.headers["Range"] else { return .whole }
        if let condition = request.headers["If-Range"]?.trimmingCharacters(in: .whitespaces) {
            let sameVersion = condition.hasPrefix("\"") ? condition == file.etag : HTTPDate.parse(condition) == file.mtime
            if !sameVersion { return .whole }
        }
        return ByteRangeRequest.parse(range, size: file.size)
    }

    private func wholeFile(_ file: StaticFile, head: Bool) -> Response? {
        if head {
            var headers = file.headers
            headers.add(name: "Content-Length", value: String(file.size))
            return Response(status: .ok, headers: headers)
        }
        if let bytes = file.bytes {
            return Response(status: .ok, headers: file.headers, body: .bytes(bytes))
        }
        // Large files go from disk to socket: memory does not grow with their size.
        guard let region = FileRegion(path: file.resolved, length: file.size) else { return nil }
        return Response(status: .ok, headers: file.headers, body: .file(region))
    }

    /// The request's path relative to the root, or nil if it is in any way suspicious.
    private func safeRelativePath(_ request: Request) -> String? {
        // Encoded separators, NUL and backslashes are refused in the path as sent,
        // whether the files are mounted on a wildcard or used as a fallback.
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in request.rawPath.utf8 {
            if byte == UInt8(ascii: "\\") || byte == 0 { return nil }
            if previous.0 == UInt8(ascii: "%") {
                let hi = previous.1, lo = byte | 0x20
                if (hi == UInt8(ascii: "2") && lo == UInt8(ascii: "f")) || (hi == UInt8(ascii: "5") && lo == UInt8(ascii: "c"))
                    || (hi == UInt8(ascii: "0") && byte == UInt8(ascii: "0")) { return nil }
            }
            previous = (previous.1, byte)
        }
        let decoded = request.parameters["*"] ?? request.path
        return Self.plainRelativePath(decoded) ?? Self.relativePath(decoded)
    }

    /// `decoded`'s segments joined by `/`, empty ones dropped; nil for a
    /// dot-segment or dot-file (".env", ".git"), a backslash or a NUL.
    static func relativePath(_ decoded: String) -> String? {
        var relative = ""
        relative.reserveCapacity(decoded.utf8.count)
        for part in decoded.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            if part.first == UInt8(ascii: ".") || part.contains(UInt8(ascii: "\\")) || part.contains(0) { return nil }
            if !relative.isEmpty { relative += "/" }
            relative += Substring(part)
        }
        return relative.isEmpty ? nil : relative
    }

    /// ``relativePath(_:)`` for the usual request without splitting: when
    /// `decoded` has no empty, dot or dot-file segment, no backslash and no
    /// NUL, it is `decoded` without its leading `/`. Anything else is nil.
    static func plainRelativePath(_ decoded: String) -> String? {
        let slash = UInt8(ascii: "/")
        let path = decoded.utf8.first == slash ? decoded.utf8.dropFirst() : decoded.utf8[...]
        var previous = slash
        for byte in path {
            if byte == 0 || byte == UInt8(ascii: "\\") { return nil }
            if previous == slash, byte == slash || byte == UInt8(ascii: ".") { return nil }
            previous = byte
        }
        // Empty, or ending in a slash.
        guard previous != slash else { return nil }
        return String(Substring(path))
    }
}

/// What is known about one servable file: where it really is, its validators,
/// its prepared headers and (when small) its bytes.
struct StaticFile: Sendable {
    let resolved: String
    let device: UInt64
    let inode: UInt64
    let size: Int
    let mtime: Double
    let mtimeNanoseconds: Int
    let etag: String
    let validators: HTTPHeaders
    let headers: HTTPHeaders
    let bytes: [UInt8]?
    /// When the file system last confirmed this entry.
    var checkedAt: ContinuousClock.Instant
}

/// Resolved files by relative path.
///
/// The first request resolves the path with `realpath` (which is what proves the
/// file lies inside the root, symlinks included) and reads it. Requests within
/// `revalidateAfter` of the last check are answered from memory; later ones
/// `stat` the path: if it still leads to the same device, inode, size and
/// modification time, the cached answer is still right — the same inode is the
/// same file that was proven to be inside the root. Anything else re-resolves.
/// A path with no file is remembered as missing for as long, so a page (a
/// path no file answers) costs no system call either.
final class FileCache: Sendable {
    private enum Entry {
        case file(StaticFile)
        case missing(checkedAt: ContinuousClock.Instant)

        var isMissing: Bool {
            if case .missing = self { true } else { false }
        }
    }

    private let entries = Locked<[String: Entry]>([:])
    private static let maxCachedFileSize = 256 * 1024
    private static let maxEntries = 1024
    private let revalidateAfter: Duration
    private let clock: @Sendable () -> ContinuousClock.Instant

    init(revalidateAfter: Duration = .zero, clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.revalidateAfter = revalidateAfter
        self.clock = clock
    }

    func file(relative: String, root: String, cacheControl: String) -> StaticFile? {
        let now = clock()
        var cached: StaticFile?
        switch entries.withLock({ $0[relative] }) {
        case .file(let file):
            // Checked lately: no system call at all.
            if revalidateAfter > .zero, now - file.checkedAt < revalidateAfter { return file }
            cached = file
        case .missing(let checkedAt):
            if revalidateAfter > .zero, now - checkedAt < revalidateAfter { return nil }
        case nil:
            break
        }
        let candidate = root + "/" + relative
        var info = stat()
        guard stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            remember(.missing(checkedAt: now), at: relative)
            return nil
        }
        if var cached,
           cached.device == UInt64(info.st_dev), cached.inode == UInt64(info.st_ino), cached.size == Int(info.st_size),
           cached.mtime == Double(info.modified.tv_sec), cached.mtimeNanoseconds == Int(info.modified.tv_nsec) {
            cached.checkedAt = now
            entries.withLock { $0[relative] = .file(cached) }
            return cached
        }
        guard let resolvedC = realpath(candidate, nil) else { return nil }
        let resolved = String(cString: resolvedC)
        free(resolvedC)
        guard resolved.hasPrefix(root + "/"), stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }

        let size = Int(info.st_size)
        let etag = "\"\(String(UInt64(info.st_ino), radix: 36))-\(String(size, radix: 36))-\(String(info.modified.tv_sec, radix: 36))\(String(info.modified.tv_nsec / 1000, radix: 36))\""
        var validators: HTTPHeaders = [:]
        validators.add(name: "ETag", value: etag)
        validators.add(name: "Last-Modified", value: HTTPDate.format(Double(info.modified.tv_sec)))
        validators.add(name: "Cache-Control", value: cacheControl)
        var headers = validators
        headers.add(name: "Content-Type", value: ContentTypes.forExtension((relative as NSString).pathExtension))
        headers.add(name: "Accept-Ranges", value: "bytes")
        var bytes: [UInt8]?
        if size <= FileCache.maxCachedFileSize {
            guard let data = FileManager.default.contents(atPath: resolved), data.count == size else { return nil }
            bytes = [UInt8](data)
        }
        let file = StaticFile(
            resolved: resolved, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: size,
            mtime: Double(info.modified.tv_sec), mtimeNanoseconds: Int(info.modified.tv_nsec),
            etag: etag, validators: validators, headers: headers, bytes: bytes, checkedAt: now)
        remember(.file(file), at: relative)
        return file
    }

    /// How many paths the cache holds, files and missing ones.
    var count: Int { entries.withLock { $0.count } }

    /// Keeps `entry` for `relative`; a full cache starts again empty, so
    /// paths a client makes up cost memory up to the bound and no more.
    private func remember(_ entry: Entry, at relative: String) {
        guard revalidateAfter > .zero || !entry.isMissing else { return }
        entries.withLock { entries in
            if entries.count >= FileCache.maxEntries, entries[relative] == nil { entries.removeAll() }
            entries[relative] = entry
        }
    }
}

extension stat {
    /// When the file's contents last changed (`st_mtim` on Linux,
    /// `st_mtimespec` on Darwin).
    fileprivate var modified: timespec {
        #if canImport(Darwin)
        st_mtimespec
        #else
        st_mtim
        #endif
    }
}
