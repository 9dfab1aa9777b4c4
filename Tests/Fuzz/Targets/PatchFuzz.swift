// fuzz-max-len: 2048
import Foundation
@testable import NapkinHTTP
@testable import NapkinWeb

/// Patch events, written straight into bytes: the body is exactly what the
/// general event-stream encoder writes for the patch's JSON, that JSON reads
/// back as the id and HTML with no raw line break, `<`, `>` or `&` in it, and
/// an event is its id line and then the body.
/// Input: id, NUL, HTML.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let fields = fuzzFields(bytes, count: 2).map { String(decoding: $0, as: UTF8.self) }
    let sequence = UInt64(bytes.reduce(0) { ($0 &* 31) &+ Int($1) }.magnitude)
    let patch = Patch(id: fields[0], html: fields[1], sequence: sequence)
    let body = patch.body
    require(body == ServerSentEvent(event: "patch", data: patch.json).encodedBytes,
            "body differs from the event-stream encoder for \(show(fields[0])), \(show(fields[1]))")
    let json = patch.json
    require(!json.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x3C || $0 == 0x3E || $0 == 0x26 },
            "raw line break or markup in \(show(json))")
    let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: String]
    require(object == ["id": fields[0], "html": fields[1]], "\(show(json)) reads back as \(String(describing: object))")
    require(Patch.event(sequence: sequence, body: body) == Array("id: \(sequence)\n".utf8) + body, "event line for \(sequence)")
    return 0
}
