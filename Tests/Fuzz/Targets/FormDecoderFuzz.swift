// fuzz-max-len: 2048
@testable import NapkinHTTP

/// A form as a handler would declare it, with every kind of field `FormDecoder` supports.
struct SignUp: Decodable, Equatable {
    enum Plan: String, Decodable { case free, pro }
    var name: String
    var age: Int
    var height: Double
    var subscribe: Bool
    var nickname: String?
    var referrer: Int?
    var plan: Plan?
    var tags: [String]
    var scores: [Int]
}

/// Form bodies decoded into a struct: never trap, and a decoded value encodes
/// back into a form that decodes to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = fuzzBytes(data, size)
    let decoded: SignUp
    do { decoded = try FormDecoder().decode(SignUp.self, from: body) } catch {
        // The reason sent to the client must be short and never echo the body.
        let reason = FormDecoder.shortReason(error)
        require(reason.utf8.count < 200, "long reason for \(body)")
        return 0
    }
    // The last value of a repeated scalar field wins.
    let fields = (try? URLEncoding.parseForm(body)) ?? []
    require(fields.last { $0.name == "name" }?.value == decoded.name, "name of \(body) is \(show(decoded.name))")

    let encoded = encode(decoded)
    let again = try? FormDecoder().decode(SignUp.self, from: Array(encoded.utf8))
    require(again == decoded, "\(decoded) encoded as \(show(encoded)) decodes to \(String(describing: again))")
    return 0
}

/// The form a browser would send for `value`.
private func encode(_ value: SignUp) -> String {
    var fields: [(String, String)] = [("name", value.name), ("age", String(value.age)), ("height", "\(value.height)")]
    if value.subscribe { fields.append(("subscribe", "on")) }
    if let nickname = value.nickname { fields.append(("nickname", nickname)) }
    if let referrer = value.referrer { fields.append(("referrer", String(referrer))) }
    if let plan = value.plan { fields.append(("plan", plan.rawValue)) }
    fields += value.tags.map { ("tags", $0) }
    fields += value.scores.map { ("scores", String($0)) }
    return fields.map { percentEncode($0.0.utf8) + "=" + percentEncode($0.1.utf8) }.joined(separator: "&")
}
