import Foundation
import Synchronization

/// Serves files from one directory (an app's `Public/`), safely.
///
/// Sends `Content-Type`, `ETag`, `Last-Modified` and `Cache-Control`, answers
/// `If-None-Match` / `If-Modified-Since` with 304, and handles `HEAD`. It never
/// lists directories and never leaves its root: `..`, encoded separators
/// (`%2f`, `%5c`), backslashes, NUL, dot-files and symlinks that resolve outside
/// the root all answer 404. Small files are kept in memory and revalidated
/// against the file system on every request.
///
/// Mounted on a wildcard route (`/assets/*`) it serves the wildcard's match;
/// used as a fallback it serves the request path.
public struct StaticFiles: HTTPResponder {
    private let root: String
    private let cacheControl: String
    private let cache: FileCache

    /// Files under `directory`, sent with the given `Cache-Control`.
    public init(directory: String, cacheControl: String = "public, max-age=300") {
        let resolved = directory.withCString { realpath($0, nil) }.map { p in defer { free(p) }; return String(cString: p) }
        self.root = resolved ?? directory
        self.cacheControl = cacheControl
        self.cache = FileCache()
    }

    /// The file's response, or `HTTPError(.notFound)` on a miss.
    public func respond(to request: Request) async throws -> Response {
        guard let response = lookup(request) else { throw HTTPError(.notFound) }
        return response
    }

    /// The file's response, or nil when there is no such (servable) file.
    public func lookup(_ request: Request) -> Response? {
        guard request.method == .get || request.method == .head else { return nil }
        guard let relative = safeRelativePath(request) else { return nil }
        let candidate = root + "/" + relative
        guard let resolvedC = candidate.withCString({ realpath($0, nil) }) else { return nil }
        let resolved = String(cString: resolvedC)
        free(resolvedC)
        guard resolved.hasPrefix(root + "/") else { return nil }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }

        let size = Int(info.st_size)
        let mtime = Double(info.st_mtim.tv_sec)
        let etag = "\"\(String(UInt64(info.st_ino), radix: 36))-\(String(size, radix: 36))-\(String(info.st_mtim.tv_sec, radix: 36))\(String(info.st_mtim.tv_nsec / 1000, radix: 36))\""
        var headers: HTTPHeaders = [:]
        headers.add(name: "ETag", value: etag)
        headers.add(name: "Last-Modified", value: cache.date(for: mtime))
        headers.add(name: "Cache-Control", value: cacheControl)

        if let match = request.headers["If-None-Match"] {
            if match == "*" || match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
                return Response(status: .notModified, headers: headers)
            }
        } else if let since = request.headers["If-Modified-Since"], let date = HTTPDate.parse(since), mtime <= date {
            return Response(status: .notModified, headers: headers)
        }

        headers.add(name: "Content-Type", value: ContentTypes.forExtension((relative as NSString).pathExtension))
        if request.method == .head {
            headers.add(name: "Content-Length", value: String(size))
            return Response(status: .ok, headers: headers)
        }
        guard let bytes = cache.contents(of: resolved, etag: etag, size: size) else { return nil }
        return Response(status: .ok, headers: headers, body: .bytes(bytes))
    }

    /// The request's path relative to the root, or nil if it is in any way suspicious.
    private func safeRelativePath(_ request: Request) -> String? {
        let raw = request.parameters["*"] == nil ? request.rawPath : request.parameters["*"]!
        let lowered = raw.lowercased()
        for bad in ["%2f", "%5c", "%00", "\\", "\0"] where lowered.contains(bad) { return nil }
        let decoded = request.parameters["*"] ?? request.path
        var parts: [Substring] = []
        for part in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if part.hasPrefix(".") || part.contains("\\") || part.contains("\0") { return nil }
            parts.append(part)
        }
        guard !parts.isEmpty else { return nil }
        return parts.joined(separator: "/")
    }
}

/// Small files by resolved path, keyed by their ETag so a changed file is re-read.
final class FileCache: Sendable {
    private struct Entry { let etag: String; let bytes: [UInt8] }
    private let entries = Locked<[String: Entry]>([:])
    private let dates = Locked<[Double: String]>([:])
    static let maxCachedFileSize = 256 * 1024
    static let maxEntries = 512

    func contents(of path: String, etag: String, size: Int) -> [UInt8]? {
        if let entry = entries.withLock({ $0[path] }), entry.etag == etag { return entry.bytes }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        if size <= FileCache.maxCachedFileSize {
            entries.withLock { entries in
                if entries.count >= FileCache.maxEntries { entries.removeAll() }
                entries[path] = Entry(etag: etag, bytes: bytes)
            }
        }
        return bytes
    }

    func date(for mtime: Double) -> String {
        if let cached = dates.withLock({ $0[mtime] }) { return cached }
        let text = HTTPDate.format(mtime)
        dates.withLock { dates in
            if dates.count >= FileCache.maxEntries { dates.removeAll() }
            dates[mtime] = text
        }
        return text
    }
}
