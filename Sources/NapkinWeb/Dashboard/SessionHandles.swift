import NapkinStorage
@_spi(Napkin) import NapkinSupport

/// The names the dashboard shows sessions by: a digest of the session's id
/// under a key made when the dashboard starts, so a page of the dashboard
/// (or a screenshot of it) gives nobody a session id to present as a cookie.
@MainActor
final class SessionHandles {
    private let key = Array(SecureToken.make().utf8)
    /// Handles shown lately and their sessions' ids, so opening one finds
    /// its session without digesting every id held.
    private var shown: [String: String] = [:]
    private static let shownLimit = 1_024

    /// The handle of the session with id `id`.
    func handle(of id: String) -> String {
        let handle = Array(HMAC.sha256(key: key, message: Array(id.utf8)).prefix(8)).hexDigits
        if shown.count >= Self.shownLimit { shown.removeAll(keepingCapacity: true) }
        shown[handle] = id
        return handle
    }

    /// The live session of `app` shown by `handle`, if any.
    func session(_ handle: String, in app: NapkinApp) -> WebSession? {
        if let id = shown[handle], let session = app.store.peek(id: id) { return session }
        return app.store.all.first { self.handle(of: $0.id) == handle }
    }
}

extension SessionHandles {
    /// Whether `text` has a handle's shape (16 lowercase hex digits).
    nonisolated static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
