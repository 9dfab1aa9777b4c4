@_spi(Napkin) import NapkinSupport

/// Turns at something one caller at a time may do (navigate a tab, run a
/// session's action), handed out in the order they were asked for.
@MainActor
final class Turns {
    private var taken = false
    private var waiting: [Promise<Void>] = []

    /// Waits for the turn. Pair with ``end()``.
    func begin() async {
        guard taken else {
            taken = true
            return
        }
        let turn = Promise<Void>()
        waiting.append(turn)
        await turn.value()
    }

    /// Takes the turn if nobody holds it; whether it did.
    func tryBegin() -> Bool {
        guard !taken else { return false }
        taken = true
        return true
    }

    /// Passes the turn to the next in line.
    func end() {
        if waiting.isEmpty {
            taken = false
        } else {
            waiting.removeFirst().resolve(())
        }
    }

    /// Runs `body` in a turn of its own.
    func run<T>(_ body: () async throws -> T) async rethrows -> T {
        await begin()
        defer { end() }
        return try await body()
    }
}
