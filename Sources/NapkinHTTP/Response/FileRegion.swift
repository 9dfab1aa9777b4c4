#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file and the bytes of it a response sends.
///
/// The descriptor is opened when the response is made (so the file the
/// headers describe is the file that is sent, even if the path is replaced
/// meanwhile) and closed when the region is released; the server hands
/// libmicrohttpd a duplicate, which it closes itself.
public final class FileRegion: Sendable {
    /// The open descriptor, owned by this region.
    let descriptor: Int32
    /// The first byte sent.
    public let offset: Int
    /// How many bytes are sent.
    public let length: Int

    /// Opens `path` read-only; `nil` when it cannot be opened.
    public init?(path: String, offset: Int = 0, length: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        descriptor = fd
        self.offset = offset
        self.length = length
    }

    deinit {
        close(descriptor)
    }

    /// Reads the region into memory (for in-process clients and tests).
    public func readAll() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let n = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + done, length - done, off_t(offset + done))
            }
            if n <= 0 { break }
            done += n
        }
        return Array(bytes[0..<done])
    }
}
