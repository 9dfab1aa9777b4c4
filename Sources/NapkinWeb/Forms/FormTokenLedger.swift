/// The form tokens a session's posts spent: a replayed post (a double
/// click, a resent request) is answered as the first was and its action
/// does not run again.
///
/// Every render of a napkin form carries a fresh token (``mint()``)
/// (``WireProtocol/Field/formToken``); a post whose action succeeded spends
/// it and re-renders the form, so the next post carries a new one. A
/// refused post leaves it unspent: the form comes back with the message,
/// to be corrected and sent again. The ledger keeps the most recent
/// ``capacity`` tokens of a session as 128-bit numbers, oldest dropped
/// first, and nothing until the first post: memory per session is bounded
/// whatever is posted. It lives with the session in one process.
struct FormTokenLedger {
    /// A token as the number its 32 hex digits spell.
    struct Token: Hashable {
        let high: UInt64
        let low: UInt64

        /// The token `text` spells, if it is well formed (32 lowercase hex digits).
        init?(_ text: String) {
            guard SecureToken.isWellFormed(text) else { return nil }
            let utf8 = Array(text.utf8)
            guard let high = UInt64(String(decoding: utf8[0..<16], as: UTF8.self), radix: 16),
                let low = UInt64(String(decoding: utf8[16..<32], as: UTF8.self), radix: 16)
            else { return nil }
            self.high = high
            self.low = low
        }
    }

    /// A new form token: unique in this process and among processes (a
    /// random start), cheap enough for every render of every form. It is
    /// no secret: a token only lets a post of its own session skip a
    /// replay, and that post needs the session's cookie and CSRF token.
    @MainActor
    static func mint() -> String {
        minted &+= 1
        return SecureToken.hex(high: mintPrefix, low: minted)
    }

    @MainActor private static let mintPrefix = UInt64.random(in: .min ... .max)
    @MainActor private static var minted = UInt64.random(in: .min ... .max)

    /// The most tokens kept for one session.
    static let capacity = 32

    private var order: [Token] = []
    private var spent: Set<Token> = []
    private var next = 0

    /// Whether a post spent `token`.
    func isSpent(_ token: Token) -> Bool {
        spent.contains(token)
    }

    /// Records that a post spent `token`, forgetting the oldest beyond ``capacity``.
    mutating func spend(_ token: Token) {
        guard spent.insert(token).inserted else { return }
        if order.count < Self.capacity {
            order.append(token)
        } else {
            spent.remove(order[next])
            order[next] = token
            next = (next + 1) % Self.capacity
        }
    }

    /// How many tokens are kept.
    var count: Int { spent.count }
}
