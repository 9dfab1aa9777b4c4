/// Helpers compiled into every fuzz target (each target is its own module).

/// Traps with `message` when `condition` is false. `precondition` would do, but an
/// optimised build drops its message, and a fuzzer crash should say what broke.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// The bytes libFuzzer hands to `LLVMFuzzerTestOneInput`.
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// Percent-encodes every byte but the RFC 3986 unreserved ones, so that any
/// decoder must give the original bytes back.
func percentEncode(_ bytes: some Sequence<UInt8>) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in bytes {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            out.append(byte)
        default:
            out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// Splits fuzz input into `count` parts at NUL bytes (missing parts are empty),
/// so one input can carry several fields.
func fuzzFields(_ bytes: [UInt8], count: Int) -> [[UInt8]] {
    var parts = bytes.split(separator: 0, maxSplits: count - 1, omittingEmptySubsequences: false).map(Array.init)
    while parts.count < count { parts.append([]) }
    return parts
}

/// `"…"` with non-printable bytes escaped, for failure messages.
func show(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        out += scalar.value >= 0x20 && scalar.value < 0x7F ? String(scalar) : "\\u{\(String(scalar.value, radix: 16))}"
    }
    return out + "\""
}
