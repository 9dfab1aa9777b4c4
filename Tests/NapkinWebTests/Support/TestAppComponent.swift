import napkin

/// The test app's app-wide scope.
final class TestAppComponent: Component<any EmptyDependency>, HomeDependency, @unchecked Sendable {
    // Safe to share: `probe` is immutable and `Sendable`; the rest is the base class's.
    let probe = Probe()

    var counter: CounterService { shared { CounterService() } }
}
