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

    /// This process's random prefix: ids from different processes differ.
    private static let prefix: String = {
        var generator = SystemRandomNumberGenerator()
        return hex(generator.next(), digits: 16)
    }()
    private static let sequence = Atomic<UInt64>(0)

    /// A new id: the process's random prefix and a sequence number, unique
    /// per process without a system call per request.
    static func make() -> String {
        let number = sequence.add(1, ordering: .relaxed).newValue
        return prefix + "-" + hex(number, digits: 8)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }
}
