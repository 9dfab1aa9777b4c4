import NapkinHTTP
import napkin

/// One open event stream (one tab) of a session: the patches it has not
/// sent yet, the latest per fragment, so a slow tab never builds a backlog.
final class PatchStream: Sendable {
    private struct State {
        var pending: [String: Patch] = [:]
        var reader: CheckedContinuation<[Patch]?, Never>?
        var closed = false
    }

    private let state = Locked(State())
    private let onClose: @Sendable () -> Void

    init(onClose: @escaping @Sendable () -> Void) {
        self.onClose = onClose
    }

    /// Queues `patches`, replacing unsent ones for the same fragments.
    func offer(_ patches: [Patch]) {
        let reader: CheckedContinuation<[Patch]?, Never>? = state.withLock { state in
            guard !state.closed else { return nil }
            for patch in patches { state.pending[patch.id] = patch }
            guard let reader = state.reader else { return nil }
            state.reader = nil
            return reader
        }
        reader?.resume(returning: takeAll())
    }

    /// The unsent patches in order, waiting for some if there are none;
    /// `nil` once the stream is closed or its reader cancelled.
    func next() async -> [Patch]? {
        let ready = takeAll()
        if !ready.isEmpty { return ready }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (reader: CheckedContinuation<[Patch]?, Never>) in
                let ready: [Patch]?? = state.withLock { state in
                    if state.closed { return .some(nil) }
                    if !state.pending.isEmpty {
                        defer { state.pending.removeAll() }
                        return .some(state.pending.values.sorted { $0.sequence < $1.sequence })
                    }
                    state.reader = reader
                    return nil
                }
                if let ready { reader.resume(returning: ready) }
            }
        } onCancel: {
            close()
        }
    }

    /// Ends the stream; its reader gets `nil`.
    func close() {
        let reader: CheckedContinuation<[Patch]?, Never>?? = state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            state.pending.removeAll()
            defer { state.reader = nil }
            return .some(state.reader)
        }
        guard let reader else { return }
        reader?.resume(returning: nil)
        onClose()
    }

    private func takeAll() -> [Patch] {
        state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending.values.sorted { $0.sequence < $1.sequence }
        }
    }
}

/// The server-sent events of one ``PatchStream``: `event: patch`,
/// `data: {"id": …, "html": …}`, `id:` the patch's sequence number.
struct PatchEvents: AsyncSequence, Sendable {
    typealias Element = ServerSentEvent
    let stream: PatchStream

    func makeAsyncIterator() -> Iterator {
        Iterator(stream: stream)
    }

    struct Iterator: AsyncIteratorProtocol {
        let stream: PatchStream
        var buffered: [Patch] = []

        mutating func next() async -> ServerSentEvent? {
            if buffered.isEmpty {
                guard let batch = await stream.next() else { return nil }
                buffered = batch.reversed()
            }
            guard let patch = buffered.popLast() else { return nil }
            return ServerSentEvent(event: "patch", data: patch.json, id: String(patch.sequence))
        }
    }
}
