// fuzz-max-len: 2048
import Foundation
@testable import NapkinHTTP
@testable import NapkinWeb

/// Patch events: a patch's data, framed by the event-stream framing, reads
/// back as one patch event whose data is exactly the patch's JSON, on one
/// line; that JSON reads back as the id and HTML with no raw line break,
/// `<`, `>` or `&` in it; and a stream's event is its id line, then the frame.
/// Input: id, NUL, HTML.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let fields = fuzzFields(bytes, count: 2).map { String(decoding: $0, as: UTF8.self) }
    let sequence = UInt64(bytes.reduce(0) { ($0 &* 31) &+ Int($1) }.magnitude)
    let patch = Patch(id: fields[0], html: fields[1])
    let json = patch.data
    let frame = EventFrame(event: WireProtocol.Event.patch, data: json)
    // The frame read as a client reads the stream: one patch event whose
    // data is the patch's JSON, unchanged.
    var parser = EventStreamParser()
    let events = parser.feed(frame.lines)
    require(events.count == 1 && events[0].event == WireProtocol.Event.patch,
            "\(show(fields[0])), \(show(fields[1])) is not one patch event")
    require(Array(events[0].data.utf8) == json, "the event's data differs from the patch's JSON for \(show(fields[0])), \(show(fields[1]))")
    require(!json.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x3C || $0 == 0x3E || $0 == 0x26 },
            "raw line break or markup in \(show(events[0].data))")
    let decoded = try? JSONDecoder().decode(WireProtocol.PatchData.self, from: Data(json))
    require(decoded == WireProtocol.PatchData(id: fields[0], html: fields[1]),
            "\(show(events[0].data)) reads back as \(String(describing: decoded))")
    let event: [UInt8] = frame.numbered(sequence).bytes
    let idLine: [UInt8] = Array("id: \(sequence)\n".utf8)
    require(event == idLine + frame.lines, "event line for \(sequence)")
    return 0
}
