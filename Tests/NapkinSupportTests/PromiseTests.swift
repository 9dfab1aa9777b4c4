import Testing
@_spi(Napkin) import NapkinSupport

@Suite("Promise", .timeLimit(.minutes(1)))
struct PromiseTests {
    @Test("every waiter, before and after, gets the first value; a second resolve changes nothing")
    func firstValueWins() async {
        let promise = Promise<Int>()
        let (registered, registering) = AsyncStream<Void>.makeStream()
        let early = Task {
            registering.yield()
            return await promise.value()
        }
        var waits = registered.makeAsyncIterator()
        await waits.next()
        #expect(promise.resolve(1))
        #expect(!promise.resolve(2))
        #expect(await early.value == 1)
        #expect(await promise.value() == 1)
        #expect(await promise.value(within: .seconds(1)) == 1)
        #expect(promise.resolved == 1)
    }

    @Test("a wait with a limit ends with nil when the limit passes, and the promise still resolves for others")
    func limitPasses() async {
        let promise = Promise<String>()
        #expect(await promise.value(within: .milliseconds(20)) == nil)
        promise.resolve("late")
        #expect(await promise.value(within: .milliseconds(20)) == "late")
    }

    @Test("cancelling a limited wait ends it with nil at once, however long its limit")
    func cancellation() async {
        let promise = Promise<Int>()
        let waiter = Task { await promise.value(within: .seconds(600)) }
        waiter.cancel()
        #expect(await waiter.value == nil)
        // Cancelled before it began: still nil, and nothing is left waiting.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await promise.value(within: .seconds(600))
        }
        #expect(await early.value == nil)
    }

    @Test("many waiters racing the resolve from many tasks all get the value")
    func racing() async {
        let promise = Promise<Int>()
        await withTaskGroup(of: Int?.self) { group in
            for index in 0..<200 {
                group.addTask { index % 2 == 0 ? await promise.value() : await promise.value(within: .seconds(30)) }
            }
            group.addTask {
                promise.resolve(7)
                return 7
            }
            for await value in group { #expect(value == 7) }
        }
    }
}
