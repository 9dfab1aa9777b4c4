import Synchronization

/// Where request ids come from: an `X-Request-ID` passed on by a trusted
/// proxy (so one id follows a request from the proxy's log to the app's),
/// else one made here.
///
/// ``AccessLog`` gives every request its id (``Request/id``), returns it on
/// the response and writes it in its line; ``ErrorMiddleware`` writes it
/// with an error. An id from anyone else is replaced, in the request's
/// headers too: a client cannot choose what is logged under its request. A passed-on id is kept only when it is 1 to 128
/// bytes of letters, digits and `-_.:`, so it can never break a log line.
public struct RequestIDs: Sendable {
    /// The header that carries the id, both ways.
    public static let header = "X-Request-ID"

    private let trusts: @Sendable (Request) -> Bool

    /// Ids passed on by requests `trusts` (one from a proxy whose ids are
    /// believed), else made.
    public init(trusting trusts: @escaping @Sendable (Request) -> Bool) {
        self.trusts = trusts
    }

    /// Every id made here, none taken.
    public static let made = RequestIDs { _ in false }

    /// The id of `request`: its trusted, well-formed `X-Request-ID`, else a new one.
    public func id(for request: Request) -> String {
        if let passed = request.headers[RequestIDs.header], RequestIDs.isWellFormed(passed), trusts(request) {
            return passed
        }
        return RequestIDs.make()
    }

    /// 1 to 128 bytes of `[A-Za-z0-9._:-]`.
    static func isWellFormed(_ id: String) -> Bool {
        let utf8 = id.utf8
        return (1...128).contains(utf8.count) && utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A
        }
    }

    /// The digits of made ids: the URL-safe base64 alphabet, all of it
    /// allowed in a passed-on id.
    private static let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// This process's random prefix (36 bits): ids from different processes differ.
    private static let prefix: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next() & (1 << 36 - 1)
    }()
    private static let sequence = Atomic<UInt64>(0)

    /// A new id: the process's random prefix, `.`, and a sequence number (48
    /// bits), 15 characters in all, so the string is stored inline and making
    /// one allocates nothing and costs no system call.
    static func make() -> String {
        let number = sequence.add(1, ordering: .relaxed).newValue
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 15) { id in
            for index in 0..<6 { id[index] = digits[Int(prefix >> (30 - 6 * index) & 63)] }
            id[6] = UInt8(ascii: ".")
            for index in 0..<8 { id[7 + index] = digits[Int(number >> (42 - 6 * index) & 63)] }
            return String(decoding: id, as: UTF8.self)
        }
    }
}
