import napkin

/// The interactor of a dashboard page: while active, it reads its figures
/// every interval and presents them. Both pages (the overview, a session's
/// tree) are this napkin with another reading and another view.
final actor ReadingInteractor<Reading: Equatable & Encodable & Sendable>: PresentableInteractable {
    nonisolated let presenter: ValuePresenter<Reading>
    private let read: @MainActor @Sendable () async -> Reading
    private let interval: Duration

    init(presenter: ValuePresenter<Reading>, interval: Duration, read: @escaping @MainActor @Sendable () async -> Reading) {
        self.presenter = presenter
        self.interval = interval
        self.read = read
    }

    func didBecomeActive() async {
        task { [presenter, read, interval] in
            while !Task.isCancelled {
                await presenter.present(await read())
                try? await Task.sleep(for: interval)
            }
        }
    }
}
