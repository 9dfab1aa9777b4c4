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
