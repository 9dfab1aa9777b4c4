import Foundation
@_spi(Napkin) import NapkinSupport
import napkin

/// A session's typed values, kept in its ``SessionRecord``: what a
/// session-scoped service reads when a session's scope is built — in this
/// process or, after a restart, in another — and writes through on change.
/// A value the session's napkins follow live is a ``SessionState``, which
/// does what this example does.
///
/// ```swift
/// actor AuthService {
///     private let values: SessionValues
///     private let user: StateBroadcaster<User?>
///
///     init(values: SessionValues) {
///         self.values = values
///         user = StateBroadcaster(values.value(for: .user))
///     }
///
///     func login(_ signedIn: User) async throws {
///         try await values.set(.user, to: signedIn)   // durable before the response
///         await user.send(signedIn)
///     }
/// }
/// ```
public final class SessionValues: Sendable {
    private let record: Locked<SessionRecord>
    private let store: any SessionRecordStore
    private let ttl: Duration

    package init(record: SessionRecord, store: any SessionRecordStore, ttl: Duration) {
        self.record = Locked(record)
        self.store = store
        self.ttl = ttl
    }

    /// Values of no session, kept in memory only: for tests and previews of
    /// session-scoped services.
    public convenience init() {
        self.init(
            record: SessionRecord(id: SecureToken.make(), csrfToken: SecureToken.make()),
            store: InMemorySessionRecords(capacity: 1), ttl: .seconds(3600))
    }

    /// The value stored under `key`, or `nil` when there is none (or it no
    /// longer decodes as `Value`).
    public func value<Value>(for key: SessionKey<Value>) -> Value? {
        guard let json = record.withLock({ $0.values[key.name] }) else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(json.utf8))
    }

    /// Stores `value` under `key` (`nil` removes it) and returns once the
    /// record is durable in the session store. Throws ``Unavailable`` when
    /// the store cannot be reached (a napkin web app answers `503`), and
    /// ``TooLarge`` when the record would hold more than a record may (see
    /// ``SessionRecord/maxValues`` and ``SessionRecord/maxValueBytes``): a
    /// store hands such a record back as none. Either way the value is then
    /// not changed.
    public func set<Value>(_ key: SessionKey<Value>, to value: Value?) async throws {
        let json = try value.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        let (before, after, defect) = record.withLock { record in
            let before = record
            record.values[key.name] = json
            guard let defect = record.valuesDefect else { return (before, record, String?.none) }
            record = before
            return (before, record, defect)
        }
        if let defect { throw TooLarge(key: key.name, description: "The session cannot hold \(key.name): \(defect).") }
        do {
            try await store.save(after, ttl: ttl)
        } catch {
            record.withLock { record in
                if record.values[key.name] == json { record.values[key.name] = before.values[key.name] }
            }
            throw Unavailable(key: key.name, cause: error)
        }
    }

    /// The session store could not be reached, so the value was not stored.
    public struct Unavailable: Error, CustomStringConvertible {
        /// The key the value was to be stored under.
        public let key: String
        /// What the store threw.
        public let cause: any Error

        /// What failed, in a sentence (the store's error included: for logs).
        public var description: String { "The session store could not store \(key): \(cause)" }
    }

    /// A value that would make the session's record larger than a record
    /// may be: too many values, a name too long, or too many bytes.
    public struct TooLarge: Error, CustomStringConvertible {
        /// The key the value was to be stored under.
        public let key: String
        /// What is too large, in a sentence.
        public let description: String
    }

    /// The record as it is now.
    package var current: SessionRecord { record.withLock { $0 } }

    /// Whether the session holds any value (someone signed in, say): such
    /// a session is kept longest when the store is full.
    package var holdsValues: Bool { record.withLock { !$0.values.isEmpty } }

    /// The session's id and token changed (a rotation): later writes go to
    /// the new id.
    package func rename(to id: String, csrfToken: String) {
        record.withLock { record in
            record.id = id
            record.csrfToken = csrfToken
        }
    }
}
