import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct ByteRangeTests {
    @Test func singleRanges() {
        #expect(ByteRangeRequest.parse("bytes=0-499", size: 1000) == .partial(0...499))
        #expect(ByteRangeRequest.parse("bytes=500-", size: 1000) == .partial(500...999))
        #expect(ByteRangeRequest.parse("bytes=-200", size: 1000) == .partial(800...999))
        #expect(ByteRangeRequest.parse("bytes=7-7", size: 1000) == .partial(7...7))
        #expect(ByteRangeRequest.parse("bytes=900-2000", size: 1000) == .partial(900...999))
    }

    @Test func unitIsCaseInsensitiveAndWhitespaceIsOptional() {
        #expect(ByteRangeRequest.parse("Bytes=0-1", size: 10) == .partial(0...1))
        #expect(ByteRangeRequest.parse("  BYTES = 2-3\t", size: 10) == .partial(2...3))
        #expect(ByteRangeRequest.parse("bytes=0-1, ", size: 10) == .partial(0...1))
        #expect(ByteRangeRequest.parse("bytes=, 4-", size: 10) == .partial(4...9))
    }

    @Test func absentMalformedAndMultipleRangesMeanTheWholeFile() {
        for header in [nil, "", "bytes", "bytes=", "bytes=-", "bytes=a-b", "bytes=1", "bytes=+1-2", "bytes=1-2-3",
                       "bytes=1 -2", "items=0-1", "bytes0-1", "bytes=0-1,2-3", "bytes=5-2", "bytes=0x10-"] {
            #expect(ByteRangeRequest.parse(header, size: 100) == .whole, "\(String(describing: header))")
        }
    }

    @Test func rangesThatSelectNothingAreUnsatisfiable() {
        #expect(ByteRangeRequest.parse("bytes=1000-", size: 1000) == .unsatisfiable)
        #expect(ByteRangeRequest.parse("bytes=1000-1001", size: 1000) == .unsatisfiable)
        #expect(ByteRangeRequest.parse("bytes=-0", size: 1000) == .unsatisfiable)
        #expect(ByteRangeRequest.parse("bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRangeRequest.parse("bytes=-5", size: 0) == .unsatisfiable)
    }

    @Test func suffixLongerThanTheFileIsTheWholeFile() {
        #expect(ByteRangeRequest.parse("bytes=-5000", size: 1000) == .partial(0...999))
    }

    @Test func hugeNumbersNeverTrap() {
        let huge = String(repeating: "9", count: 40)
        #expect(ByteRangeRequest.parse("bytes=\(huge)-", size: 1000) == .unsatisfiable)
        #expect(ByteRangeRequest.parse("bytes=10-\(huge)", size: 1000) == .partial(10...999))
        #expect(ByteRangeRequest.parse("bytes=-\(huge)", size: 1000) == .partial(0...999))
        #expect(ByteRangeRequest.parse("bytes=\(huge)-\(huge)", size: Int.max) == .unsatisfiable)
        // Both past Int.max, still compared exactly: first > last is invalid.
        #expect(ByteRangeRequest.parse("bytes=\(huge)-\(huge.dropLast())8", size: 1000) == .whole)
        #expect(ByteRangeRequest.parse("bytes=0000000000000000000000005-6", size: 1000) == .partial(5...6))
        #expect(ByteRangeRequest.parse("bytes=0-\(Int.max)", size: Int.max) == .partial(0...(Int.max - 1)))
    }
}
