#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much a `multipart/form-data` post may bring. Files go to temporary
/// files as they arrive, so these bound disk, not memory; the text fields
/// are held in memory, within the server's body limits.
public struct UploadLimits: Sendable {
    /// The largest file; past it the post is answered `413`.
    public var maxFileBytes: Int
    /// The largest whole multipart body; past it, `413` (up front when
    /// `Content-Length` says so).
    public var maxRequestBytes: Int
    /// The most parts (fields and files) in one post; past it, `413`.
    public var maxParts: Int
    /// The most bytes of one part's head; past it, `400`.
    public var maxPartHeadBytes: Int
    /// The most bytes of uploaded files on disk at once, over all requests
    /// still arriving or running. A post that would pass it is answered
    /// `503` with `Retry-After`.
    public var maxSpooledBytes: Int
    /// The directory temporary files are made in.
    public var directory: String

    /// Limits; every parameter has the default documented on its property.
    public init(
        maxFileBytes: Int = 8 << 20,
        maxRequestBytes: Int = 16 << 20,
        maxParts: Int = 64,
        maxPartHeadBytes: Int = 4 * 1024,
        maxSpooledBytes: Int = 1 << 30,
        directory: String = UploadLimits.defaultDirectory
    ) {
        self.maxFileBytes = maxFileBytes
        self.maxRequestBytes = maxRequestBytes
        self.maxParts = maxParts
        self.maxPartHeadBytes = maxPartHeadBytes
        self.maxSpooledBytes = maxSpooledBytes
        self.directory = directory
    }

    /// `$TMPDIR`, or `/tmp`.
    public static var defaultDirectory: String {
        guard let tmp = getenv("TMPDIR").map({ String(cString: $0) }), !tmp.isEmpty else { return "/tmp" }
        return tmp
    }
}
