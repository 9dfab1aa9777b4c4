import Foundation
import Testing
@testable import NapkinHTTP

/// Wake-ups offered inside a burst wait for its end; outside one they run
/// at once.
@Suite("Stream wake-ups", .timeLimit(.minutes(1)))
struct StreamWakeupsTests {
    final class Log: @unchecked Sendable {
        var entries: [String] = []
    }

    @Test("inside coalescing, wake-ups run when the outermost call returns, in order")
    func heldUntilTheEnd() {
        let log = Log()
        StreamWakeups.coalescing {
            StreamWakeups.deliver { log.entries.append("a") }
            StreamWakeups.coalescing {
                StreamWakeups.deliver { log.entries.append("b") }
            }
            log.entries.append("body")
        }
        #expect(log.entries == ["body", "a", "b"])
    }

    /// Stands in for a server loop: records when it is woken.
    final class Loop: LoopWaking {
        let name: String
        let log: Log
        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }
        func wake() { log.entries.append("wake \(name)") }
    }

    @Test("a burst wakes each loop once, after every connection of the burst is resumed")
    func loopsWokenOnceAtTheEnd() {
        let log = Log()
        let first = Loop("first", log: log)
        let second = Loop("second", log: log)
        StreamWakeups.coalescing {
            StreamWakeups.deliver({ log.entries.append("a") }, thenWaking: first)
            StreamWakeups.deliver({ log.entries.append("b") }, thenWaking: second)
            StreamWakeups.deliver({ log.entries.append("c") }, thenWaking: first)
        }
        #expect(log.entries == ["a", "b", "c", "wake first", "wake second"])
        log.entries = []
        StreamWakeups.deliver({ log.entries.append("now") }, thenWaking: first)
        #expect(log.entries == ["now", "wake first"])
    }

    @Test("outside coalescing, a wake-up runs at once; another thread's burst holds only its own")
    func otherwiseAtOnce() async {
        let log = Log()
        StreamWakeups.deliver { log.entries.append("now") }
        #expect(log.entries == ["now"])
        let other = Log()
        StreamWakeups.coalescing {
            // A thread of its own, joined (which ThreadSanitizer sees).
            var thread = pthread_t()
            pthread_create(&thread, nil, { context in
                let other = Unmanaged<Log>.fromOpaque(context!).takeRetainedValue()
                StreamWakeups.deliver { other.entries.append("other thread") }
                return nil
            }, Unmanaged.passRetained(other).toOpaque())
            pthread_join(thread, nil)
            #expect(other.entries == ["other thread"])
        }
    }
}
