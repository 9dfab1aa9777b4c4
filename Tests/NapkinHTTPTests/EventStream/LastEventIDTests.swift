import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct LastEventIDTests {
    @Test func acceptsDecimalCounters() {
        #expect(LastEventID.parse("0") == 0)
        #expect(LastEventID.parse("42") == 42)
        #expect(LastEventID.parse("  7 ") == 7)
        #expect(LastEventID.parse("00000000000000000001") == 1)
        #expect(LastEventID.parse("18446744073709551615") == UInt64.max)
    }

    @Test func refusesAnythingElse() {
        for value in [nil, "", " ", "+1", "-1", "1e3", "0x10", "1 2", "\t5", "5\n", "١٢", "abc",
                      "18446744073709551616", "000000000000000000001", "99999999999999999999"] {
            #expect(LastEventID.parse(value) == nil, "\(String(describing: value))")
        }
    }
}
