import Foundation
@_spi(Napkin) import NapkinSupport

/// The latest value of something that changes, kept as the JSON that
/// answers for it: encoded once per change rather than once per request, and
/// read by any request thread without waiting on an actor. For an endpoint
/// many clients poll while the value moves on its own, such as a live
/// board's.
///
/// ```swift
/// let board = JSONSnapshot(Board.opening)
/// router.get("/api/board") { _ in board.response }   // answered at once
/// board.store(next)                                  // on every change
/// ```
///
/// Keys are sorted, so the same value always gives the same bytes.
public final class JSONSnapshot<Value: Encodable & Sendable>: Sendable {
    private let state: Locked<(value: Value, bytes: [UInt8])>

    /// A snapshot of `value`.
    public init(_ value: Value) {
        state = Locked((value, Self.encode(value) ?? Array("null".utf8)))
    }

    /// The value last stored.
    public var value: Value { state.withLock { $0.value } }

    /// The value last stored, as JSON.
    public var bytes: [UInt8] { state.withLock { $0.bytes } }

    /// `200 OK` with ``bytes`` as `application/json`.
    public var response: Response {
        Response(status: .ok, headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(bytes))
    }

    /// Replaces the value, encoding it now. A value that does not encode
    /// leaves the snapshot as it was.
    public func store(_ value: Value) {
        guard let bytes = Self.encode(value) else { return }
        state.withLock { $0 = (value, bytes) }
    }

    private static func encode(_ value: Value) -> [UInt8]? {
        let encoder = JSONEncoder()
        // The same bytes for the same value: on Linux the default key order
        // varies from one encode to the next.
        encoder.outputFormatting = .sortedKeys
        return try? Array(encoder.encode(value))
    }
}
