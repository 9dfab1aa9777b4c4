// fuzz-max-len: 128
@testable import NapkinHTTP

/// `Range` headers: never trap, a partial range always lies inside the file, and
/// the answer does not depend on spelling (leading zeros, the unit's case).
///
/// Input: the first 8 bytes are the file size (reduced to a few sizes that
/// matter), the rest is the header.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    guard bytes.count >= 8 else { return 0 }
    let raw = bytes[..<8].reduce(0) { $0 << 8 | Int($1) }
    let sizes = [0, 1, 2, 100, 1 << 20, Int.max - 1, Int.max]
    let fileSize = raw < 0 ? sizes[Int(raw.magnitude % UInt(sizes.count))] : raw % 4 == 0 ? sizes[(raw / 4) % sizes.count] : raw
    let header = String(decoding: bytes[8...], as: UTF8.self)

    let result = ByteRangeRequest.parse(header, size: fileSize)
    switch result {
    case .partial(let range):
        require(range.lowerBound >= 0 && range.upperBound < fileSize, "\(range) outside \(fileSize) bytes for \(show(header))")
    case .unsatisfiable:
        require(header.utf8.contains(UInt8(ascii: "-")), "unsatisfiable without a range: \(show(header))")
    case .whole:
        break
    }
    require(ByteRangeRequest.parse(nil, size: fileSize) == .whole, "absent header is not the whole file")

    // Leading zeros and the unit's case change nothing.
    var padded: [UInt8] = []
    var previous: UInt8 = 0
    for byte in header.utf8 {
        let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        let previousIsDigit = previous >= UInt8(ascii: "0") && previous <= UInt8(ascii: "9")
        if isDigit && !previousIsDigit { padded += Array("000".utf8) }
        padded.append(byte)
        previous = byte
    }
    let zeros = String(decoding: padded, as: UTF8.self)
    require(ByteRangeRequest.parse(zeros, size: fileSize) == result, "\(show(zeros)) differs from \(show(header))")
    let upper = String(decoding: header.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    require(ByteRangeRequest.parse(upper, size: fileSize) == result, "\(show(upper)) differs from \(show(header))")
    return 0
}
