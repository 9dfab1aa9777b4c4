// fuzz-max-len: 64
@testable import NapkinHTTP

/// `If-Modified-Since` is client text: parsing it must never trap, must land in
/// the calendar it accepts, and a date it accepts must survive napkin's own
/// formatting unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    guard let seconds = HTTPDate.parse(text) else { return 0 }
    // Year 1 to year 9999, plus at most a leap second into year 10000.
    let earliest = -62_135_596_800.0, latest = 253_402_300_800.0
    require(seconds >= earliest && seconds <= latest, "\(show(text)) parsed to out-of-range \(seconds)")
    let formatted = HTTPDate.format(seconds)
    if seconds < latest {
        require(HTTPDate.parse(formatted) == seconds, "\(show(text)) → \(seconds) → \(formatted) does not parse back")
    }
    return 0
}
