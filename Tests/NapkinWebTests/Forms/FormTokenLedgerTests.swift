import Foundation
import Testing
@testable import NapkinWeb

/// A session remembers the form tokens its posts spent, within bounds.
@Suite("Form token ledger", .timeLimit(.minutes(1)))
struct FormTokenLedgerTests {
    static func token(_ number: Int) -> FormTokenLedger.Token {
        FormTokenLedger.Token(String(repeating: "0", count: 16) + String(format: "%016x", number))!
    }

    @Test("a spent token is known; another is not")
    func spend() {
        var ledger = FormTokenLedger()
        ledger.spend(Self.token(1))
        #expect(ledger.isSpent(Self.token(1)))
        #expect(!ledger.isSpent(Self.token(2)))
    }

    @Test("only 32 lowercase hex digits are a token")
    func wellFormed() {
        #expect(FormTokenLedger.Token(String(repeating: "a", count: 32)) != nil)
        for bad in ["", String(repeating: "a", count: 31), String(repeating: "a", count: 33), String(repeating: "A", count: 32),
                    String(repeating: "g", count: 32), "+" + String(repeating: "1", count: 31), String(repeating: "é", count: 16)] {
            #expect(FormTokenLedger.Token(bad) == nil, "\(bad)")
        }
    }

    @Test("however many posts, the ledger keeps the newest tokens up to its capacity")
    func bounded() {
        var ledger = FormTokenLedger()
        for number in 0..<10_000 { ledger.spend(Self.token(number)) }
        #expect(ledger.count == FormTokenLedger.capacity)
        #expect(ledger.isSpent(Self.token(9_999)))
        #expect(ledger.isSpent(Self.token(10_000 - FormTokenLedger.capacity)))
        #expect(!ledger.isSpent(Self.token(10_000 - FormTokenLedger.capacity - 1)))
        // Spending a kept token again changes nothing.
        ledger.spend(Self.token(9_999))
        #expect(ledger.count == FormTokenLedger.capacity)
        #expect(ledger.isSpent(Self.token(10_000 - FormTokenLedger.capacity)))
    }
}
