#if canImport(Glibc)
import Glibc
#endif
import NapkinHTTP
import NapkinSupport
import Synchronization
import napkin

// The napkins and helpers the core suite measures with.

// MARK: - A leaf napkin

/// A leaf's view: nothing to render, it only has to exist.
@MainActor
final class LeafViewController: ViewControllable {}

/// A leaf's presenter, annotated the way the core documents for features.
@MainActor
@Observable
final class LeafPresenter: Presenter<LeafViewController> {
    var count = 0
}

/// A leaf's interactor: the lifecycle and nothing else.
final actor LeafInteractor: PresentableInteractable {
    nonisolated let presenter: LeafPresenter

    init(presenter: LeafPresenter) {
        self.presenter = presenter
    }
}

/// A leaf's router; trees are made of these too.
@MainActor
final class LeafRouter: ViewableRouter<LeafInteractor, LeafViewController> {}

/// Builds one leaf napkin: view controller, presenter, interactor (with its
/// lifecycle) and router.
@MainActor
func makeLeaf() -> LeafRouter {
    let viewController = LeafViewController()
    let presenter = LeafPresenter(viewController: viewController)
    let interactor = LeafInteractor(presenter: presenter)
    return LeafRouter(interactor: interactor, viewController: viewController)
}

// MARK: - The floor

/// The floor's actor: one call is one hop onto it and back.
actor FloorActor {
    private(set) var calls = 0

    func call() -> Int {
        calls += 1
        return calls
    }
}

// MARK: - Broadcast rendezvous

/// Counts subscribers down for one round and resumes the waiting sender
/// when the last one arrives — no polling.
final class Rendezvous: Sendable {
    private let remaining = Atomic(0)
    private let round = Mutex(Promise<Void>())

    /// Starts a round that ends after `count` hits.
    func arm(_ count: Int) {
        round.withLock { $0 = Promise() }
        remaining.store(count, ordering: .sequentiallyConsistent)
    }

    /// One subscriber got the value.
    func hit() {
        guard remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        round.withLock { $0 }.resolve(())
    }

    /// Returns once the round's last hit arrived.
    func wait() async {
        await round.withLock { $0 }.value()
    }
}

// MARK: - Clock, statistics and memory

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}

func median(_ values: [Double]) -> Double {
    percentile(values, 50)
}

/// Nearest-rank percentile.
func percentile(_ values: [Double], _ p: Double) -> Double {
    precondition(!values.isEmpty)
    let sorted = values.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

/// Resident memory of this process, in bytes (`/proc/self/statm`).
func residentBytes() -> Int {
    #if canImport(Glibc)
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    guard fscanf_statm(file, &size, &resident) else { return 0 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return 0
    #endif
}

#if canImport(Glibc)
private func fscanf_statm(_ file: UnsafeMutablePointer<FILE>, _ size: inout Int, _ resident: inout Int) -> Bool {
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
    let line = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    let fields = line.split(separator: " ")
    guard fields.count >= 2, let s = Int(fields[0]), let r = Int(fields[1]) else { return false }
    size = s
    resident = r
    return true
}
#endif

/// Hands freed memory back to the system, as the server's periodic trim
/// does, so a baseline is not flattered by pages an earlier measurement left
/// in malloc's free lists.
func trimHeap() {
    MemoryReturn.trim()
}
