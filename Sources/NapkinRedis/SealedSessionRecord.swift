import Foundation
import NapkinStorage
@_spi(Napkin) import NapkinSupport

/// A session record as Redis holds it: the HMAC-SHA256 seal (64 hex digits)
/// of the session id and the JSON, then the JSON of the token and values.
/// The id itself is not stored, so reading Redis yields no cookie; and a
/// value made without the secret, or moved from another session's key,
/// does not open.
struct SealedSessionRecord {
    /// The most bytes napkin reads back from a record's key.
    static let maxBytes = 64 * 1024

    private struct Body: Codable {
        var csrfToken: String
        var values: [String: String]
    }

    private static let sealLength = 64

    /// `record`, sealed with `secret`.
    static func seal(_ record: SessionRecord, secret: [UInt8]) throws -> [UInt8] {
        let json = Array(try JSONEncoder().encode(Body(csrfToken: record.csrfToken, values: record.values)))
        return Array(mac(id: record.id, json: json, secret: secret).hexDigits.utf8) + json
    }

    /// The record of session `id` that `stored` holds, or why it is refused.
    static func open(_ stored: [UInt8], id: String, secret: [UInt8]) -> Result<SessionRecord, Refusal> {
        guard stored.count <= maxBytes else { return .failure(Refusal("it is larger than \(maxBytes) bytes")) }
        guard stored.count > sealLength else { return .failure(Refusal("it is too short to be sealed")) }
        let json = Array(stored[sealLength...])
        let seal = Array(stored[..<sealLength])
        guard HMAC.equal(seal, Array(mac(id: id, json: json, secret: secret).hexDigits.utf8)) else {
            return .failure(Refusal("its seal does not match (not written by this app, or moved from another key)"))
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(json)) else {
            return .failure(Refusal("it is not a record"))
        }
        let record = SessionRecord(id: id, csrfToken: body.csrfToken, values: body.values)
        if let defect = record.defect { return .failure(Refusal(defect)) }
        return .success(record)
    }

    struct Refusal: Error {
        let why: String
        init(_ why: String) { self.why = why }
    }

    private static func mac(id: String, json: [UInt8], secret: [UInt8]) -> [UInt8] {
        HMAC.sha256(key: secret, message: Array("napkin session record\0\(id)\0".utf8) + json)
    }
}
