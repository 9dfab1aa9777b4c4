// fuzz-max-len: 4096
import Foundation
@testable import NapkinStorage

/// A presence message from the bus (whoever reaches Redis can publish one):
/// never traps, whether refused or taken; one that is taken has its keys
/// within bounds, and a book that takes it holds only keys within bounds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let payload = fuzzBytes(data, size)
    guard let envelope = BusEnvelope<PresenceMessage<String>>.decode(payload, channel: "presence.fuzz") else { return 0 }
    guard envelope.value.defect == nil else { return 0 }
    switch envelope.value {
    case .join(_, let key, _), .leave(_, let key):
        require((1...PresenceKey.maxBytes).contains(key.utf8.count), "a key of \(key.utf8.count) bytes was taken")
    case .snapshot(_, let part, let parts, let entries):
        require((0..<parts).contains(part) && entries.count <= PresenceMessage<String>.partSize, "part \(part) of \(parts), \(entries.count) entries taken")
    case .beat, .bye, .sync:
        break
    }
    var book = PresenceBook<String>(origin: "fuzz-receiver")
    _ = book.receive(envelope.value, from: envelope.origin, at: .now)
    for key in book.present.keys {
        require((1...PresenceKey.maxBytes).contains(key.utf8.count), "the book holds a key of \(key.utf8.count) bytes")
    }
    return 0
}
