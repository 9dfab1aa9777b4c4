import Foundation
import NapkinWeb
import napkin

/// A child napkin attached at `/order`: a form whose interactor refuses
/// what it cannot take with ``FormError``, one in a region of its own, and
/// one rating form per dish.
@MainActor
struct OrderBuilder {
    func build() -> OrderRouter {
        let presenter = OrderPresenter()
        let viewController = OrderViewController(presenter: presenter)
        let interactor = OrderInteractor(presenter: presenter)
        viewController.listener = interactor
        return OrderRouter(interactor: interactor, viewController: viewController)
    }
}

struct OrderForm: Decodable {
    let name: String
    let quantity: Int
}

/// A note to the kitchen: a typed action whose form is built with field
/// helpers and checked while the person types.
struct KitchenNote: Decodable {
    let text: String
    let side: String
    let urgent: Bool?
}

extension FormAction where Input == KitchenNote {
    /// Checked on every post, and alone on a validation pass.
    static var note: FormAction<KitchenNote> {
        FormAction("note", validatesWhileTyping: true, debounceMilliseconds: 250) { note in
            if note.text.isEmpty { throw FormError("Write a note.", field: "text") }
            if note.text.count > 20 { throw FormError("Keep the note to 20 characters.", field: "text") }
            if note.text == "soup" { throw KitchenRefusal.soldOut("soup") }
        }
    }
}

struct RatingForm: Decodable {
    let dish: String
    let stars: Int
}

protocol OrderPresentableListener: AnyObject, Sendable {
    func didOrder(_ order: OrderForm) async throws
    func didRate(_ rating: RatingForm) async throws
    func didCancel() async throws
    func didNote(_ note: KitchenNote) async throws
}

final actor OrderInteractor: PresentableInteractable, OrderPresentableListener {
    nonisolated let presenter: OrderPresenter
    static let dishes = ["ribs", "brisket"]

    init(presenter: OrderPresenter) {
        self.presenter = presenter
    }

    /// Counts every attempt before judging it, so a refused post still has
    /// a consequence to show.
    func didOrder(_ order: OrderForm) async throws {
        await presenter.countAttempt()
        let name = order.name.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { throw FormError("Tell us who the order is for.", field: "name") }
        if name.hasPrefix("taken:") { throw FormError("\(name.dropFirst(6)) already ordered today.", field: "name") }
        if name == "sold-out" { throw KitchenRefusal.soldOut("ribs") }
        guard (1...12).contains(order.quantity) else { throw FormError("Order between 1 and 12.", field: "quantity") }
        await presenter.showOrder("\(order.quantity) for \(name)")
    }

    func didRate(_ rating: RatingForm) async throws {
        guard (1...5).contains(rating.stars) else { throw FormError("Give 1 to 5 stars.", field: "stars") }
        await presenter.showRating("\(rating.dish): \(rating.stars)")
    }

    /// Counts every note it is given, before judging it, so a test sees
    /// whether it ran at all.
    func didNote(_ note: KitchenNote) async throws {
        await presenter.countNote()
        if note.text == "burnt" { throw FormError("The kitchen is out of burnt notes.", field: "text") }
    }

    func didCancel() async throws {
        guard await presenter.placed != nil else { throw FormError("There is no order to cancel.") }
        await presenter.showOrder(nil)
    }
}

@MainActor
@Observable
final class OrderPresenter {
    var attempts = 0
    var placed: String?
    var rating: String?
    var notes = 0

    func countAttempt() { attempts += 1 }
    func countNote() { notes += 1 }
    func showOrder(_ order: String?) { placed = order }
    func showRating(_ rating: String) { self.rating = rating }
}

@MainActor
final class OrderViewController: WebViewController {
    weak var listener: (any OrderPresentableListener)?
    private let presenter: OrderPresenter

    init(presenter: OrderPresenter) {
        self.presenter = presenter
        super.init()
        action("order", as: OrderForm.self) { [weak self] order in try await self?.listener?.didOrder(order) }
        action("rate", as: RatingForm.self) { [weak self] rating in try await self?.listener?.didRate(rating) }
        action("cancel") { [weak self] in try await self?.listener?.didCancel() }
        action(.note) { [weak self] note in try await self?.listener?.didNote(note) }
    }

    /// Marks the field at fault and gives back what was typed, as a view
    /// does with ``problem(for:)``.
    override func body() -> HTML {
        let problem = problem(for: "order")
        func invalid(_ field: String) -> HTML {
            guard let problem, problem.field == field else { return "" }
            return " aria-invalid=\"true\" aria-describedby=\"\(problem.id)\""
        }
        let ratings = OrderInteractor.dishes.map { dish -> HTML in
            form("rate", key: dish, content: """
                <input type="hidden" name="dish" value="\(dish)">\
                <input name="stars" value="">\
                <button type="submit">Rate \(dish)</button>
                """)
        }
        return """
            <p class="attempts">Attempts: \(presenter.attempts)</p>\
            <p class="placed">\(presenter.placed ?? "No order")</p>\
            <p class="rating">\(presenter.rating ?? "No rating")</p>\
            \(form("order", content: """
                <input name="name" value="\(problem?.values["name"] ?? "")"\(invalid("name"))>\
                <input name="quantity" value="\(problem?.values["quantity"] ?? "1")"\(invalid("quantity"))>\
                <button type="submit">Order</button>
                """))\
            \(region("cancel") { [weak self] in self?.form("cancel", content: "<button type=\"submit\">Cancel order</button>") ?? .empty })\
            \(ratings)\
            <p class="notes">Notes: \(presenter.notes)</p>\
            \(form(.note, class: "note", content: """
                \(field("text", .textarea, label: "Note", of: .note, attributes: "maxlength=\"40\""))\
                \(field("side", .select([.init("slaw", label: "Slaw"), .init("beans", label: "Beans")]), label: "Side", of: .note, value: "beans"))\
                \(field("urgent", .checkbox, label: "Urgent", of: .note))\
                \(submitButton("Send note", working: "Sending…"))
                """))
            """
    }
}

@MainActor
final class OrderRouter: ViewableRouter<OrderInteractor, OrderViewController> {}

/// The kitchen's own refusal: an app error that converts to a ``FormError``.
enum KitchenRefusal: Error, FormErrorConvertible {
    case soldOut(String)

    var formError: FormError {
        switch self {
        case .soldOut(let dish): FormError("We are out of \(dish) tonight.", field: "name")
        }
    }
}
