import Testing
import napkin

/// A subscriber's mailbox gives back the settlement token of every value
/// it lets go unread, so a settlement waits only for values a subscriber
/// still has to process.
@Suite("Mailbox settlement", .timeLimit(.minutes(1)))
struct MailboxTests {
    @Test("a stalled state subscriber holds one value's token: the values a newer one replaced gave theirs back")
    func replacedValuesLeave() async {
        let broadcaster = StateBroadcaster(0)
        let subscription = await broadcaster.subscribe()
        let (_, report) = await Settlement.run(timeout: .zero) {
            for value in 1...3 { await broadcaster.send(value) }
        }
        #expect(report.outstanding == 1)
        #expect(subscription.droppedCount == 3)
        subscription.cancel()
    }

    @Test("a stalled event subscriber holds its buffer's tokens: dropped events gave theirs back")
    func droppedEventsLeave() async {
        let broadcaster = EventBroadcaster<Int>(bufferLimit: 2)
        let subscription = await broadcaster.subscribe()
        let (_, report) = await Settlement.run(timeout: .zero) {
            for event in 1...5 { await broadcaster.send(event) }
        }
        #expect(report.outstanding == 2)
        subscription.cancel()
    }

    @Test("cancelling a subscription gives back what it held, so the settlement finishes")
    func cancelledSubscriptionLeaves() async {
        let broadcaster = EventBroadcaster<Int>(bufferLimit: 4)
        let subscription = await broadcaster.subscribe()
        let (_, report) = await Settlement.run(timeout: .seconds(10)) {
            for event in 1...3 { await broadcaster.send(event) }
            subscription.cancel()
        }
        #expect(report.settled)
    }

    @Test("a subscription closed while a value is on its way to its reader leaks no token, 300 times over")
    func closeRacingDelivery() async {
        for _ in 0..<300 {
            let broadcaster = EventBroadcaster<Int>()
            let subscription = await broadcaster.subscribe()
            let reader = Task {
                for await _ in subscription {}
            }
            let (_, report) = await Settlement.run(timeout: .seconds(10)) {
                await broadcaster.send(1)
                subscription.cancel()
            }
            await reader.value
            guard report.settled else {
                Issue.record("a token was left behind: \(report)")
                return
            }
        }
    }
}
