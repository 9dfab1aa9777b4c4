// Article:begin "WhoIsHere.md", Swift block 1 — a faithful copy: lines marked `// wrapper` are not in the article.
import NapkinWeb // wrapper
import napkin // wrapper

enum WhoIsHereExample { // wrapper
    struct User { let name: String } // wrapper

struct Diner: Codable, Sendable, Equatable { let name: String }

    static func start(bus: any MessageBus) async -> Presence<Diner> { // wrapper
// App-wide, once: on the app's bus (this process alone by default).
let diners = Presence<Diner>(topic: "diners", bus: bus)
await diners.start()
        return diners // wrapper
    } // wrapper

    final actor SignedInInteractor: Interactable { // wrapper
        let diners: Presence<Diner> // wrapper
        let user: User // wrapper
        init(diners: Presence<Diner>, user: User) { // wrapper
            self.diners = diners // wrapper
            self.user = user // wrapper
        } // wrapper

// In the signed-in napkin's interactor:
func didBecomeActive() async {
    await diners.track(user.name, Diner(name: user.name), by: self)
}
    } // wrapper
} // wrapper
// Article:end
