import Foundation
import Testing
@_spi(Napkin) import NapkinSupport

/// `Wakeup`, on every backend this platform has (the portable stage runs
/// this suite too, in a build where the pipe is the preferred backend).
@Suite(.timeLimit(.minutes(1))) struct WakeupTests {
    @Test(arguments: Wakeup.Backend.available)
    func aThreadBlockedInPollIsWokenFromAnother(backend: Wakeup.Backend) async throws {
        let wakeup = try Wakeup(backend: backend)
        let waiting = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        let woken = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            Thread.detachNewThread {
                waiting.signal()
                done.resume(returning: wakeup.wait(timeout: .seconds(30)))
            }
            // A third thread wakes it once it has said it is about to block
            // (if the wake lands first, the wait must return at once all the same).
            Thread.detachNewThread {
                waiting.wait()
                wakeup.wake()
            }
        }
        #expect(woken)
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test(arguments: Wakeup.Backend.available)
    func aWakeBeforeTheWaitIsNotLost(backend: Wakeup.Backend) throws {
        let wakeup = try Wakeup(backend: backend)
        wakeup.wake()
        #expect(wakeup.wait(timeout: .seconds(30)))
        // Consumed: nothing is left for the next wait.
        #expect(!wakeup.wait(timeout: .zero))
    }

    /// Ten thousand wakes from eight threads between two turns of the
    /// sleeper write once: the descriptor holds one wake, not ten thousand.
    @Test(arguments: Wakeup.Backend.available)
    func manyWakesCoalesceIntoOneWrite(backend: Wakeup.Backend) throws {
        let wakeup = try Wakeup(backend: backend)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1250 { wakeup.wake() }
        }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(wakeup.descriptor, &buffer, buffer.count)
        switch backend {
        case .eventfd:
            #expect(count == 8)
            let counter = buffer.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            #expect(counter == 1)
        case .pipe:
            #expect(count == 1)
        }
        #expect(read(wakeup.descriptor, &buffer, buffer.count) == -1)
        // Until the sleeper consumes, later wakes stay coalesced into that one.
        wakeup.wake()
        #expect(read(wakeup.descriptor, &buffer, buffer.count) == -1)
    }

    /// After a turn (the consume), the next wake writes again: a wake that
    /// lands while the sleeper works is seen by its next wait.
    @Test(arguments: Wakeup.Backend.available)
    func aWakeAfterATurnWakesTheNextWait(backend: Wakeup.Backend) throws {
        let wakeup = try Wakeup(backend: backend)
        for _ in 0..<3 {
            wakeup.wake()
            wakeup.wake()
            #expect(wakeup.wait(timeout: .seconds(30)))
            #expect(!wakeup.wait(timeout: .zero))
        }
        // A turn that found nothing to read still lets the next wake write.
        wakeup.wake()
        wakeup.consume(readable: false)
        wakeup.wake()
        #expect(wakeup.wait(timeout: .seconds(30)))
    }

    @Test(arguments: Wakeup.Backend.available)
    func aWaitNobodyWakesTimesOut(backend: Wakeup.Backend) throws {
        let wakeup = try Wakeup(backend: backend)
        let start = ContinuousClock.now
        #expect(!wakeup.wait(timeout: .milliseconds(20)))
        #expect(ContinuousClock.now - start >= .milliseconds(20))
    }

    @Test func timeoutsArePollsWholeMillisecondsRoundedUp() {
        #expect(Wakeup.milliseconds(nil) == -1)
        #expect(Wakeup.milliseconds(.zero) == 0)
        #expect(Wakeup.milliseconds(.nanoseconds(-5)) == 0)
        #expect(Wakeup.milliseconds(.nanoseconds(1)) == 1)
        #expect(Wakeup.milliseconds(.microseconds(1500)) == 2)
        #expect(Wakeup.milliseconds(.milliseconds(2)) == 2)
        #expect(Wakeup.milliseconds(.seconds(3)) == 3000)
        #expect(Wakeup.milliseconds(.seconds(Int64.max)) == Int32.max)
    }

    @Test func linuxHasBothBackendsAndEveryPlatformAPipe() {
        #if os(Linux)
        #expect(Wakeup.Backend.available == [.eventfd, .pipe])
        #else
        #expect(Wakeup.Backend.available == [.pipe])
        #endif
    }
}
