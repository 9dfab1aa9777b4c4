/// The business logic of a napkin: a `final actor` per feature.
///
/// Conform and get the whole lifecycle, with nothing to declare:
///
/// ```swift
/// final actor HomeInteractor: Interactable {
///     func didBecomeActive() async {
///         task { for await user in await self.users.subscribe() { await self.show(user) } }
///     }
/// }
/// ```
///
/// The parent router calls ``activate()`` when it attaches the napkin and
/// ``deactivate()`` when it detaches it; both are idempotent. Work started
/// with ``task(priority:_:)`` is bound to the active scope and cancelled on
/// deactivation — there is nothing to dispose by hand.
public protocol Interactable: Actor {
    /// The lifecycle state behind the default implementations. napkin keeps
    /// one for every interactor (see the extension's ``lifecycle``);
    /// declaring `nonisolated let lifecycle = InteractorLifecycle()`, as
    /// napkin for iOS does, stores it in the interactor instead.
    nonisolated var lifecycle: InteractorLifecycle { get }

    /// Called once per activation, after the interactor became active.
    /// Start subscriptions here with ``task(priority:_:)``.
    func didBecomeActive() async

    /// Called once per deactivation, first: the interactor is still active
    /// and its bound tasks still run (they are cancelled once it returns).
    /// Flush state here; work bound now with ``task(priority:_:)`` is refused.
    func willResignActive() async
}

extension Interactable {
    /// The lifecycle napkin keeps for this interactor, made on first use and
    /// held beside it (never keeping it alive) until the router that owns
    /// the interactor goes, which cancels work still bound. An interactor no
    /// router owns keeps it until napkin notices the interactor gone, soon
    /// after; a stored `lifecycle` goes with the interactor at once.
    public nonisolated var lifecycle: InteractorLifecycle { LifecycleTable.lifecycle(of: self) }

    /// Does nothing; override to start work when the napkin is attached.
    public func didBecomeActive() async {}

    /// Does nothing; override to flush state when the napkin is detached.
    public func willResignActive() async {}

    /// Whether the interactor is active now.
    public nonisolated var isActive: Bool { lifecycle.isActive }

    /// Whether the tree this interactor belongs to is shown to someone: `false`
    /// for a tree launched only to answer a question (see ``Viewing``).
    /// Leave out what others would see (being present, counting a visit)
    /// from a tree that nobody views.
    public nonisolated var isViewed: Bool { lifecycle.isViewed }

    /// The current active state, then every change; a fresh stream per call.
    public nonisolated var isActiveStream: AsyncStream<Bool> { lifecycle.isActiveStream }

    /// Makes the interactor active and calls ``didBecomeActive()``. Does
    /// nothing when it is already active, unless a ``deactivate()`` is
    /// under way: then this later call wins (see ``deactivate()``).
    public func activate() async {
        guard let activation = lifecycle.beginActivation() else { return }
        await InteractorLifecycle.$activation.withValue(activation) {
            await Viewing.within(lifecycle.isViewed) { await didBecomeActive() }
        }
    }

    /// Calls ``willResignActive()`` while the interactor is still active,
    /// then cancels its bound tasks and makes it inactive — the order of
    /// napkin for iOS. Does nothing when it is already inactive, or already
    /// deactivating (that deactivation ends the activation).
    ///
    /// An ``activate()`` made while ``willResignActive()`` runs wins, as the
    /// later call: the interactor stays active and its ``didBecomeActive()``
    /// runs again, while this deactivation still cancels the work bound before
    /// it began.
    public func deactivate() async {
        guard let deactivation = lifecycle.beginDeactivation() else { return }
        await willResignActive()
        lifecycle.endDeactivation(deactivation)
    }

    /// Hands each value of `subscription` to `handler`, one at a time, while
    /// the interactor is active — napkin's lightest way to follow a service:
    ///
    /// ```swift
    /// observe(await pit.subscribe()) { [presenter] pit in await presenter.show(pit) }
    /// ```
    ///
    /// Unlike a `task { for await … }` loop, an idle observation holds no
    /// suspended task, only its subscription. Values are handled in order,
    /// newer ones queuing by the broadcaster's policy; deactivation (or an
    /// interactor that is not active) cancels it.
    public nonisolated func observe<Value: Sendable>(
        _ subscription: Subscription<Value>,
        _ handler: @escaping @Sendable (Value) async -> Void
    ) {
        lifecycle.observe(subscription, handler)
    }

    /// Keeps `member` while the interactor is active: its
    /// ``EndsWithActivation/end()`` runs when the interactor resigns active
    /// (after ``willResignActive()``, with the bound tasks' cancellation).
    /// On an inactive or deactivating interactor — or from a
    /// `didBecomeActive()` that a later deactivation overtook — it is ended
    /// at once and `false` is returned.
    @discardableResult
    public nonisolated func keep(_ member: some EndsWithActivation) -> Bool {
        lifecycle.keep(member)
    }

    /// Starts `operation` bound to the active scope: it is cancelled when
    /// the interactor deactivates. On an inactive or deactivating interactor
    /// — or from a `didBecomeActive()` that a later deactivation overtook —
    /// the work never runs and the returned task is already cancelled.
    @discardableResult
    public nonisolated func task(
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
        lifecycle.bind(priority: priority, operation)
    }
}
