import NapkinHTTP
import NapkinTesting
import NapkinWeb
import Testing
import napkin

/// The order form of Forms and validation
/// (`ArticleExamples/FormsAndValidation.swift`) does what the article says,
/// shown alone on the page of a minimal app.
@Suite("Forms and validation: the order form", .timeLimit(.minutes(1)))
@MainActor
struct FormsAndValidationTests {
    final class Scope: Component<any EmptyDependency>, @unchecked Sendable {}

    final actor HostInteractor: Interactable {}

    final class HostView: WebViewController {
        override func body() -> HTML { slot("order") }
    }

    /// The page's root: the order form in its one slot.
    final class Host: LaunchRouter<HostInteractor, HostView> {
        init() {
            super.init(interactor: HostInteractor(), viewController: HostView())
        }

        override func didLoad() async {
            let presenter = OrderPresenter()
            let interactor = OrderInteractor(presenter: presenter)
            await attach(ViewableRouter(interactor: interactor, viewController: OrderView(presenter: presenter, listener: interactor)), in: "order")
        }
    }

    func start() -> (NapkinApp, TestClient) {
        // A tab the test reads without a stream stays past napkin's 3 s grace,
        // however slowly a loaded machine runs the test.
        let app = NapkinApp(component: Scope(), configuration: NapkinConfiguration(tabGracePeriod: .seconds(60))) { _ in Host() }
        var router = HTTPRouter()
        app.mount(on: &router)
        return (app, TestClient(inProcess: router))
    }

    @Test("without JavaScript, a refused order comes back with the message, the field marked and what was typed")
    func refusedWithoutJavaScript() async throws {
        let (app, client) = start()
        let page = try await client.get("/")
        #expect(page.text.contains("Nothing ordered yet."))

        let refused = try await client.submit(page, button: "Order", fields: ["dish": "Brisket", "quantity": "20"])
        #expect(refused.status == 200)
        #expect(refused.text.contains("<p class=\"napkin-error\" role=\"alert\" id=\""))
        #expect(refused.text.contains("data-napkin-field=\"quantity\">Order between 1 and 12.</p>"))
        #expect(refused.text.contains("<input name=\"quantity\" value=\"20\" aria-invalid=\"true\" aria-describedby=\""))
        #expect(refused.text.contains("<input name=\"dish\" value=\"Brisket\">"))

        let noDish = try await client.submit(refused, button: "Order", fields: ["dish": "", "quantity": "2"])
        #expect(noDish.text.contains(">Choose a dish.</p>"))
        #expect(noDish.text.contains("<input name=\"dish\" value=\"\" aria-invalid=\"true\""))

        // Taken: the problem is gone.
        let taken = try await client.submit(noDish, button: "Order", fields: ["dish": "Ribs", "quantity": "2"])
        #expect(taken.text.contains("<p class=\"last-order\">2 × Ribs</p>"))
        #expect(!taken.text.contains("napkin-error"))
        await app.shutdown()
    }

    @Test("with napkin's client, a field that does not decode answers 422 with the fragment, in words for people")
    func refusedWithJavaScript() async throws {
        let (app, client) = start()
        let page = try await client.get("/")

        let notANumber = try await client.submit(page, button: "Order", fields: ["dish": "Ribs", "quantity": "two"], javascript: true)
        #expect(notANumber.status == 422)
        #expect(notANumber.text.contains(">Quantity must be a whole number.</p>"))
        #expect(notANumber.text.contains("<input name=\"quantity\" value=\"two\" aria-invalid=\"true\""))

        let empty = try await client.submit(page, button: "Order", fields: ["dish": "Ribs", "quantity": ""], javascript: true)
        #expect(empty.status == 422)
        #expect(empty.text.contains(">Quantity is required.</p>"))

        let taken = try await client.submit(page, button: "Order", fields: ["dish": "Ribs", "quantity": "3"], javascript: true)
        #expect(taken.status == 204)
        #expect(try await client.get("/").text.contains("3 × Ribs"))
        await app.shutdown()
    }
}
