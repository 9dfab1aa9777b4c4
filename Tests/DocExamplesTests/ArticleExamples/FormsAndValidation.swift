// Article:begin "FormsAndValidation.md", Swift blocks 1, 2 and 3 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinWeb // wrapper
import napkin // wrapper

/// The fields of the order form.
struct OrderForm: Decodable {
    var dish: String
    var quantity: Int
}

final class OrderView: WebViewController { // wrapper
    let presenter: OrderPresenter // wrapper

    init(presenter: OrderPresenter, listener: OrderInteractor) {
        self.presenter = presenter
        super.init()
        action("order", as: OrderForm.self) { order in
            try await listener.didOrder(order)
        }
    }

    override func body() -> HTML {
        // Set when the last order was refused: why, and what was posted.
        let problem = problem(for: "order")
        func marked(_ field: String) -> HTML {
            guard let problem, problem.field == field else { return "" }
            return " aria-invalid=\"true\" aria-describedby=\"\(problem.id)\""
        }
        let dish = problem?.values["dish"] ?? ""
        let quantity = problem?.values["quantity"] ?? "1"
        return """
            <p class="last-order">\(presenter.lastOrder ?? "Nothing ordered yet.")</p>\
            \(form("order", content: """
                <label>Dish <input name="dish" value="\(dish)"\(marked("dish"))></label>\
                <label>Quantity <input name="quantity" value="\(quantity)"\(marked("quantity"))></label>\
                <button type="submit">Order</button>
                """))
            """
    }
} // wrapper

final actor OrderInteractor: PresentableInteractable { // wrapper
    nonisolated let presenter: OrderPresenter // wrapper
    init(presenter: OrderPresenter) { self.presenter = presenter } // wrapper

    func didOrder(_ order: OrderForm) async throws {
        guard !order.dish.isEmpty else {
            throw FormError("Choose a dish.", field: "dish")
        }
        guard (1...12).contains(order.quantity) else {
            throw FormError("Order between 1 and 12.", field: "quantity")
        }
        await presenter.present(lastOrder: "\(order.quantity) × \(order.dish)")
    }
} // wrapper

@MainActor @Observable // wrapper
final class OrderPresenter: Presentable { // wrapper
    private(set) var lastOrder: String? // wrapper
    func present(lastOrder: String) { self.lastOrder = lastOrder } // wrapper
} // wrapper
// Article:end
