import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct HTTPDateTests {
    @Test func parsesIMFFixdate() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse(HTTPDate.format(784_111_777)) == 784_111_777)
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
    }

    /// Regression: a year too big for `Int32` used to trap (found by fuzzing `If-Modified-Since`).
    @Test func outOfRangeFieldsAreRejectedNotTrapped() {
        for text in ["Sun, 06 Nov 99999999999 08:49:37 GMT", "Sun, 99999999999 Nov 1994 08:49:37 GMT",
                     "Sun, 06 Nov 1994 99999999999:49:37 GMT", "Sun, 06 Nov 1994 08:49:99999999999 GMT",
                     "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 0 08:49:37 GMT",
                     "Sun, 06 Nov 10000 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
                     "Sun, 06 Nov 1994 08:49:61 GMT"] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }

    @Test func rejectsMalformedFields() {
        for text in ["Xyz, 06 Nov 1994 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
                     "Sun Nov  6 08:49:37 1994", "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov -1994 08:49:37 GMT",
                     "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08::49:37 GMT", "Sun, 06 Nov 1994 8:49 GMT",
                     "Sun, 06 Nov 1994 08:49:37 UTC", ""] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }

    @Test func leapSecondRollsOver() {
        #expect(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT") == HTTPDate.parse("Sun, 01 Jan 2017 00:00:00 GMT"))
    }
}
