// fuzz-max-len: 2048
import Foundation
@testable import NapkinHTTP
@testable import NapkinWeb

/// Patch events, written straight into bytes: the body reads back as one
/// patch event, exactly as the general event-stream encoder writes its data;
/// that JSON reads back as the id and HTML with no raw line break, `<`, `>` or `&` in it, and
/// an event is its id line and then the body.
/// Input: id, NUL, HTML.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let fields = fuzzFields(bytes, count: 2).map { String(decoding: $0, as: UTF8.self) }
    let sequence = UInt64(bytes.reduce(0) { ($0 &* 31) &+ Int($1) }.magnitude)
    let patch = Patch(id: fields[0], html: fields[1], sequence: sequence)
    let body = patch.body
    // The body read as a client reads the stream: one patch event, framed as
    // the general encoder frames its data.
    var parser = EventStreamParser()
    let events = parser.feed(body)
    require(events.count == 1 && events[0].event == "patch", "\(show(fields[0])), \(show(fields[1])) is not one patch event")
    let json = events[0].data
    require(body == ServerSentEvent(event: "patch", data: json).encodedBytes,
            "body differs from the event-stream encoder for \(show(fields[0])), \(show(fields[1]))")
    require(!json.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x3C || $0 == 0x3E || $0 == 0x26 },
            "raw line break or markup in \(show(json))")
    let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: String]
    require(object == ["id": fields[0], "html": fields[1]], "\(show(json)) reads back as \(String(describing: object))")
    require(Patch.event(sequence: sequence, body: body) == Array("id: \(sequence)\n".utf8) + body, "event line for \(sequence)")
    return 0
}
