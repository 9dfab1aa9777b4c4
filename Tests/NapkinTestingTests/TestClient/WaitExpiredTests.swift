import NapkinHTTP
import NapkinTesting
import Testing
@testable import NapkinWeb

/// A wait that runs out of time says what it waited for and where.
@Suite("Named waits", .timeLimit(.minutes(1)))
@MainActor
struct WaitExpiredTests {
    @Test("a patch that never comes names the wait, the tab's stream, and the test's line")
    func patchWait() async throws {
        let tally = try TallyApp(.inProcess)
        let client = tally.client()
        let page = try await client.get("/")
        let tabID = try #require(page.tabID)
        let stream = try await client.events()
        _ = try await stream.nextPatch()
        let line = #line + 2
        do {
            _ = try await stream.nextPatch(timeout: .milliseconds(200))
            Issue.record("a patch came")
        } catch let expired as WaitExpired {
            #expect(expired.fileID == #fileID)
            #expect(expired.line == line)
            #expect(expired.limit == .milliseconds(200))
            #expect(expired.description.hasPrefix("\(#fileID):\(line): waited 0.2 seconds for a patch on the stream of tab \(tabID.prefix(8))"))
        }
        stream.close()
        await tally.stop()
    }

    @Test("a matching patch that never comes names the patches it skipped; any event's wait says so")
    func skippedPatches() async throws {
        let tally = try TallyApp(.inProcess)
        let client = tally.client()
        let page = try await client.get("/")
        let stream = try await client.events()
        let first = try await stream.nextPatch()
        #expect(try await client.submit(page, button: "Add one", javascript: true).status == 204)
        let line = #line + 2
        do {
            _ = try await stream.nextPatch(timeout: .milliseconds(500)) { $0.html.contains("Tally: 2") }
            Issue.record("a patch matched")
        } catch let expired as WaitExpired {
            #expect(expired.line == line)
            #expect(expired.awaited.hasPrefix("a matching patch on the stream of tab"))
            #expect(expired.detail == "skipped patches of \(first.id)")
        }
        let eventLine = #line + 1
        let error = await #expect(throws: WaitExpired.self) { try await stream.next(timeout: .milliseconds(100)) }
        #expect(error?.line == eventLine)
        #expect(error?.awaited.hasPrefix("an event on the stream of tab") == true)
        stream.close()
        await tally.stop()
    }

    @Test("withDeadline's failure names the line it was made on")
    func deadline() async {
        let line = #line + 2
        do {
            try await withDeadline(.milliseconds(50), TimedOut("the never-ending wait ended")) {
                try await Task.sleep(for: .seconds(60))
            }
            Issue.record("the wait ended")
        } catch {
            #expect(String(describing: error) == "\(#fileID):\(line): the never-ending wait ended")
        }
    }
}
