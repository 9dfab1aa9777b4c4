import Testing
@testable import NapkinStorage

@Suite("Secure tokens", .timeLimit(.minutes(1)))
struct SecureTokenTests {
    @Test("a token is 32 lowercase hex digits, well formed, and never repeats")
    func shape() {
        let tokens = (0..<2_000).map { _ in SecureToken.make() }
        #expect(tokens.allSatisfy { $0.utf8.count == 32 && SecureToken.isWellFormed($0) })
        #expect(Set(tokens).count == tokens.count)
        // Every digit turns up in every position: all 128 bits are used.
        for position in 0..<32 {
            let digits = Set(tokens.map { Array($0.utf8)[position] })
            #expect(digits == Set("0123456789abcdef".utf8), "position \(position)")
        }
    }
}
