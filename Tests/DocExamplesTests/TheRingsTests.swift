import NapkinTesting
import NapkinWeb
import Testing
import napkin

/// The rings' leaf (`ArticleExamples/TheRingsLeaf.swift`) does what the
/// article says: built from a component, attached under a parent, it follows
/// the thermometer until it is detached.
@Suite("The rings: the gauge", .timeLimit(.minutes(1)))
@MainActor
struct TheRingsTests {
    /// A component that gives the gauge its dependency, as a parent's would.
    final class Scope: Component<any EmptyDependency>, GaugeDependency, @unchecked Sendable {
        var thermometer: Thermometer { shared { Thermometer() } }
    }

    final actor ParentInteractor: Interactable {}

    @Test("attached, the gauge shows every reading; detached, it lets go of the thermometer")
    func followsTheThermometer() async throws {
        let scope = Scope()
        let parent = Router(interactor: ParentInteractor())
        let gauge = GaugeBuilder(dependency: scope).build()

        // The observation's first value, the current reading, settles with the attach.
        let (_, attached) = await Settlement.run(timeout: .seconds(10)) { await parent.attachChild(gauge) }
        #expect(attached.settled)
        #expect(gauge.interactor.isActive)
        #expect(gauge.viewController.presenter.degrees == 225)

        let (_, set) = await Settlement.run(timeout: .seconds(10)) { await scope.thermometer.set(250) }
        #expect(set.settled)
        #expect(gauge.viewController.body().rendered == "<p class=\"gauge\">250 °F</p>")

        await parent.detachChild(gauge)
        #expect(!gauge.interactor.isActive)
        let thermometer = scope.thermometer
        try await withDeadline(.seconds(10), TimedOut("the detached gauge kept its subscription")) {
            while await thermometer.readings.subscriberCount > 0 {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }
}
