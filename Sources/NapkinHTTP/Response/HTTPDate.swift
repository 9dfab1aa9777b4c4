import Foundation

/// IMF-fixdate formatting and parsing (`Sun, 06 Nov 1994 08:49:37 GMT`), done with
/// the C library so it is locale-independent and cheap.
enum HTTPDate {
    static func format(_ seconds: Double) -> String {
        var t = time_t(seconds)
        var tm = tm()
        gmtime_r(&t, &tm)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &tm)
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Parses an IMF-fixdate; other (obsolete) formats give nil, which callers treat as absent.
    ///
    /// The text comes from clients (`If-Modified-Since`), so every field is checked
    /// before it reaches `tm`'s `Int32`s: digits only, and within the calendar.
    static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", weekdays.contains(String(parts[0])),
              let day = number(parts[1], in: 1...31), let year = number(parts[3], in: 1...9999),
              let month = months.firstIndex(of: String(parts[2])) else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = number(clock[0], in: 0...23), let minute = number(clock[1], in: 0...59),
              let second = number(clock[2], in: 0...60) else { return nil }
        var tm = tm()
        tm.tm_year = Int32(year - 1900)
        tm.tm_mon = Int32(month)
        tm.tm_mday = Int32(day)
        tm.tm_hour = Int32(hour)
        tm.tm_min = Int32(minute)
        tm.tm_sec = Int32(second)  // 60 is a leap second; timegm rolls it into the next minute.
        return Double(timegm(&tm))
    }

    /// One to four ASCII digits whose value lies in `range`; `Int(_:)` would also take signs and any length.
    private static func number(_ text: Substring, in range: ClosedRange<Int>) -> Int? {
        guard (1...4).contains(text.utf8.count) else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return range.contains(value) ? value : nil
    }

    private static let weekdays: Set<String> = ["Mon,", "Tue,", "Wed,", "Thu,", "Fri,", "Sat,", "Sun,"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
