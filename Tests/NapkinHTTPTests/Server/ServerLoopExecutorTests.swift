import Foundation
import Testing
@_spi(Napkin) import NapkinSupport
@testable import NapkinHTTP

/// A server loop is its handlers' task executor.
@Suite(.timeLimit(.minutes(1))) struct ServerLoopExecutorTests {
    /// A handler that hops to the main actor comes back to the loop that read
    /// its request, not to a thread of the global pool.
    @Test func aHandlerComesBackToItsLoopAfterAnActorHop() async throws {
        try await expectHandlersComeBackToTheirLoop { await MainActor.run {} }
    }

    /// A handler still suspended when its loop ends (shutdown answered its
    /// request 503) runs on to its end on the global pool, instead of waiting
    /// forever in the queue of a loop that will never turn again.
    @Test func aHandlerOutlivingItsLoopFinishesOnThePool() async throws {
        let parked = Locked<CheckedContinuation<Void, Never>?>(nil)
        let (events, sink) = AsyncStream<String>.makeStream()
        var router = HTTPRouter()
        router.get("/late") { _ in
            await withCheckedContinuation { continuation in
                parked.withLock { $0 = continuation }
                sink.yield("parked")
            }
            sink.yield(ServerLoop.current == nil ? "finished off the loops" : "finished on a loop")
            return .text("late")
        }
        var iterator = events.makeAsyncIterator()
        let server = HTTPServer(
            configuration: ServerConfiguration(workerThreads: 1, shutdownGracePeriod: .milliseconds(10)), responder: router)
        try server.start()
        async let reply = fetch(server.port, "/late")
        #expect(await iterator.next() == "parked")
        await server.shutdown()
        #expect(try await reply.status == 503)
        parked.withLock { $0 }?.resume()
        #expect(await iterator.next() == "finished off the loops")
    }
}
