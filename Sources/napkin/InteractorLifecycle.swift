@_spi(Napkin) import NapkinSupport

/// The state machine behind every interactor: active or not, the tasks bound
/// to the active scope, and the observers of `isActive`.
///
/// napkin keeps one for every interactor (``Interactable/lifecycle``), or
/// an interactor stores its own as `nonisolated let lifecycle =
/// InteractorLifecycle()`; the ``Interactable`` extension drives it. It
/// closes the holes an interactor lifecycle easily leaves open:
///
/// - ``Interactable/task(priority:_:)`` on an inactive interactor never runs
///   the work; it returns an already-cancelled task.
/// - Finished bound tasks leave the set, so a long-lived interactor does not
///   grow.
/// - Deactivation follows napkin for iOS: `willResignActive()` runs while
///   the interactor is still active and its bound work still runs; only then
///   is that work cancelled and the interactor inactive. Work bound while it
///   deactivates is refused.
/// - Every activation starts a new generation. Work that `didBecomeActive()`
///   binds after a later `deactivate()` began belongs to a lost activation
///   and is refused; an `activate()` made while a deactivation runs wins over
///   it. So racing calls end in the state of the last one.
public final class InteractorLifecycle: @unchecked Sendable {
    // Safe to share: all mutable state lives in `state`, a `Locked` (pthread mutex).

    struct State {
        var isActive = false
        /// A deactivation has begun and not ended: its `willResignActive()` runs.
        var deactivating = false
        /// Bumped when an activation begins or ends; the work bound in one
        /// activation carries its generation.
        var generation: UInt64 = 0
        var nextID: UInt64 = 0
        var tasks: [UInt64: (generation: UInt64, task: Task<Void, Never>)] = [:]
        /// The subscriptions observed and the members kept, oldest first (an
        /// array: an interactor keeps a few, and they end only all together).
        var observations: [(generation: UInt64, subscription: any EndsWithActivation)] = []
        var observers: [UInt64: AsyncStream<Bool>.Continuation] = [:]
        /// Whether the tree this interactor belongs to is shown to someone.
        var isViewed = true
    }

    /// The activation an interactor's `didBecomeActive()` runs in, so that
    /// the tasks it binds can be refused once that activation is stale.
    struct Activation: Sendable {
        let lifecycle: ObjectIdentifier
        let generation: UInt64
    }

    @TaskLocal static var activation: Activation?

    private let state = Locked(State())

    /// Creates an inactive lifecycle.
    public init() {}

    deinit {
        // Backstop: an interactor released while active takes its work with it.
        let (tasks, observations, observers) = state.withLock { ($0.tasks.values, $0.observations, $0.observers.values) }
        for bound in tasks { bound.task.cancel() }
        for observation in observations { observation.subscription.end() }
        for observer in observers { observer.finish() }
    }

    /// Whether the interactor is active now.
    public var isActive: Bool {
        state.withLock { $0.isActive }
    }

    /// Whether the tree this interactor belongs to is shown to someone (see
    /// ``Viewing``): its launcher's ``Viewing/isViewed`` for the root, its
    /// parent's for a child.
    public var isViewed: Bool {
        state.withLock { $0.isViewed }
    }

    /// Takes the tree's ``isViewed`` before the interactor activates.
    func adoptViewing(_ viewed: Bool) {
        state.withLock { $0.isViewed = viewed }
    }

    /// The number of bound tasks still running (finished ones are removed).
    public var boundTaskCount: Int {
        state.withLock { $0.tasks.count }
    }

    /// The current state, then every change. Each call returns a fresh
    /// stream; a slow reader sees the latest state (older ones are dropped).
    public var isActiveStream: AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.observers[id] = continuation
            continuation.yield(state.isActive)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Begins an activation; `nil` when the lifecycle is active and not
    /// deactivating. During a deactivation it stays active: the new
    /// activation overtakes that deactivation, which then only ends the
    /// work of the activation it began on.
    func beginActivation() -> Activation? {
        state.withLock { state in
            if state.isActive {
                guard state.deactivating else { return nil }
                state.deactivating = false
            } else {
                state.isActive = true
                for observer in state.observers.values { observer.yield(true) }
            }
            state.generation += 1
            return Activation(lifecycle: ObjectIdentifier(self), generation: state.generation)
        }
    }

    /// Begins a deactivation and returns the generation it ends; `nil` when
    /// the lifecycle is inactive or already deactivating. Nothing is
    /// cancelled yet, and new work is refused until an activation.
    func beginDeactivation() -> UInt64? {
        state.withLock { state in
            guard state.isActive, !state.deactivating else { return nil }
            state.deactivating = true
            return state.generation
        }
    }

    /// Ends the deactivation begun at `generation`: cancels the work bound
    /// in that activation and, unless an activation overtook it, marks the
    /// lifecycle inactive.
    func endDeactivation(_ generation: UInt64) {
        let (tasks, observations) = state.withLock { state in
            if state.generation == generation {
                state.isActive = false
                state.deactivating = false
                state.generation += 1
                for observer in state.observers.values { observer.yield(false) }
            }
            let tasks = state.tasks.filter { $0.value.generation == generation }
            let observations = state.observations.filter { $0.generation == generation }
            for id in tasks.keys { state.tasks.removeValue(forKey: id) }
            state.observations.removeAll { $0.generation == generation }
            return (tasks.values.map(\.task), observations.map(\.subscription))
        }
        for task in tasks { task.cancel() }
        for subscription in observations { subscription.end() }
    }

    /// Whether work may be bound now: active, not deactivating, and not from
    /// an activation that a later transition overtook.
    private func accepts(_ activation: Activation?, _ state: State) -> Bool {
        guard state.isActive, !state.deactivating else { return false }
        if let activation, activation.lifecycle == ObjectIdentifier(self) {
            return activation.generation == state.generation
        }
        return true
    }

    /// Hands `subscription`'s values to `handler` while active, or cancels
    /// the subscription when refused.
    func observe<Value: Sendable>(
        _ subscription: Subscription<Value>,
        _ handler: @escaping @Sendable (Value) async -> Void
    ) {
        let activation = Self.activation
        let observed = subscription.observed
        let viewed = state.withLock { state -> Bool? in
            guard accepts(activation, state) else { return nil }
            state.observations.append((state.generation, observed))
            return state.isViewed
        }
        guard let viewed else {
            subscription.cancel()
            return
        }
        // A value is handled in a task its sender started: the handler
        // runs with this tree's `Viewing`, not the sender's.
        subscription.push { value in await Viewing.within(viewed) { await handler(value) } }
    }

    /// Keeps `member` until the activation ends, or ends it at once when
    /// refused; whether it was kept.
    func keep(_ member: any EndsWithActivation) -> Bool {
        let activation = Self.activation
        let kept = state.withLock { state -> Bool in
            guard accepts(activation, state) else { return false }
            state.observations.append((state.generation, member))
            return true
        }
        if !kept { member.end() }
        return kept
    }

    /// Starts `operation` bound to the active scope, or refuses it.
    func bind(
        priority: TaskPriority?,
        _ operation: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
        let activation = Self.activation
        // Work bound while an event settles counts until it ends or is
        // parked on input: see `Settlement`.
        let token = Settlement.current?.enter()
        let executor = token.flatMap { $0.settlement?.executor(for: $0) }
        let bound: Task<Void, Never>? = state.withLock { state in
            guard accepts(activation, state) else { return nil }
            let id = state.nextID
            state.nextID += 1
            let viewed = state.isViewed
            // Made under the lock, so the task's own removal below always
            // finds it registered. The task keeps its executor alive.
            let task = Task(executorPreference: executor, priority: priority) { [weak self] in
                if let token {
                    await Settlement.Token.$current.withValue(token) { await Viewing.within(viewed) { await operation() } }
                    executor?.leave()
                    token.leave()
                } else {
                    // Any token this task inherited belongs to a settlement
                    // that has finished, so leaving it changes nothing.
                    await Viewing.within(viewed) { await operation() }
                }
                self?.finish(id)
            }
            state.tasks[id] = (state.generation, task)
            return task
        }
        if let bound { return bound }
        token?.leave()
        let refused = Task<Void, Never> {}
        refused.cancel()
        return refused
    }

    private func finish(_ id: UInt64) {
        _ = state.withLock { $0.tasks.removeValue(forKey: id) }
    }
}
