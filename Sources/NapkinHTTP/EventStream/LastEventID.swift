/// Reads the `Last-Event-ID` a reconnecting `EventSource` sends back.
///
/// napkin's event ids are plain counters, so anything but a small decimal
/// number is some other client's id (or an attack) and is ignored rather than
/// guessed at. `UInt64(_:)` alone would also take `+7`. Package-visible because
/// NapkinWeb reads the header for its event streams.
package enum LastEventID {
    /// The id as a number: 1–20 ASCII digits, optionally surrounded by spaces,
    /// whose value fits `UInt64`; otherwise nil.
    package static func parse(_ value: String?) -> UInt64? {
        guard var digits = value?.utf8[...] else { return nil }
        while digits.first == UInt8(ascii: " ") { digits.removeFirst() }
        while digits.last == UInt8(ascii: " ") { digits.removeLast() }
        guard (1...20).contains(digits.count) else { return nil }
        var result: UInt64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, o1) = result.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            result = sum
        }
        return result
    }
}
