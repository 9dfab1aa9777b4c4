import Testing
@_spi(Napkin) import NapkinSupport

@Suite("Task slot", .timeLimit(.minutes(1)))
struct TaskSlotTests {
    /// A task that runs until it is cancelled.
    static func parked() -> Task<Void, Never> {
        Task {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
        }
    }

    @Test("callers racing to start one task start exactly one")
    func startsOnce() async {
        let slot = TaskSlot()
        let started = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 { group.addTask { slot.start { Self.parked() } } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(started == 1)
        let task = slot.stop()
        #expect(task?.isCancelled == true)
        await task?.value
        #expect(slot.start { Self.parked() }, "a stopped slot starts again")
        slot.stop()
    }

    @Test("a stop that comes while the task is being made cancels it as it is held")
    func stopWhileClaimed() async {
        let slot = TaskSlot()
        #expect(slot.claim())
        #expect(!slot.claim())
        #expect(slot.stop() == nil)
        let task = Self.parked()
        slot.hold(task)
        #expect(task.isCancelled)
        await task.value
        #expect(slot.claim(), "the slot is empty again")
    }

    @Test("replace cancels the task held before")
    func replaceCancels() async {
        let slot = TaskSlot()
        let first = Self.parked()
        slot.replace(with: first)
        let second = Self.parked()
        slot.replace(with: second)
        #expect(first.isCancelled && !second.isCancelled)
        slot.stop()
        #expect(second.isCancelled)
    }
}
