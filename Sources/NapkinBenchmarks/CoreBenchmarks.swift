import Foundation
import napkin

/// The core suite of the benchmark executable: the lifecycle of a leaf
/// against the floor of Swift concurrency, tree build and teardown, memory
/// per napkin, and state broadcaster fan-out. Every figure is printed next
/// to its target, measured side by side in one run.
enum CoreBenchmarks {
    static let clock = ContinuousClock()

    static func run() async throws {
        let started = clock.now
        // Memory first: nothing measured before it has left pages in
        // malloc's free lists that the napkins could reuse unseen.
        await memory().print()
        await lifecycle().print()
        await trees().print()
        await wideParents().print()
        await broadcasts().print()
        print("\ncore suite: \(fmt((clock.now - started).seconds, 1)) s")
    }

    static func verdict(_ pass: Bool) -> String { pass ? "pass" : "MISS" }

    // MARK: - 1. Leaf lifecycle against the floor

    /// One iteration of the floor is `await Task { await actor.call() }.value`
    /// from the main actor; one attach+activate+detach is `attachChild`
    /// (activate, load) then `detachChild` (deactivate) of a leaf under an
    /// active parent, from the same main-actor loop. The variants run
    /// interleaved, round by round, the same number of times; each figure is
    /// the median of the rounds.
    @MainActor
    static func lifecycle() async -> Table {
        let iterations = 20_000
        let rounds = 5
        let floorActor = FloorActor()
        let parent = makeLeaf()
        await parent.interactor.activate()
        let reused = makeLeaf()
        var sink = 0

        func floor(_ count: Int) async -> Duration {
            let start = clock.now
            for _ in 0..<count { sink &+= await Task { await floorActor.call() }.value }
            return clock.now - start
        }
        func floorOffMain(_ count: Int) async -> Duration {
            await offMainFloor(floorActor, count)
        }
        func bareCall(_ count: Int) async -> Duration {
            let start = clock.now
            for _ in 0..<count { sink &+= await floorActor.call() }
            return clock.now - start
        }
        func reusedLeaf(_ count: Int) async -> Duration {
            let start = clock.now
            for _ in 0..<count {
                await parent.attachChild(reused)
                await parent.detachChild(reused)
            }
            return clock.now - start
        }
        func freshLeaf(_ count: Int) async -> Duration {
            let start = clock.now
            for _ in 0..<count {
                let leaf = makeLeaf()
                await parent.attachChild(leaf)
                await parent.detachChild(leaf)
            }
            return clock.now - start
        }

        // Warm up every path.
        _ = await floor(2_000)
        _ = await bareCall(2_000)
        _ = await floorOffMain(2_000)
        _ = await reusedLeaf(2_000)
        _ = await freshLeaf(2_000)

        var floorTimes: [Double] = []
        var bareTimes: [Double] = []
        var offMainTimes: [Double] = []
        var reusedTimes: [Double] = []
        var freshTimes: [Double] = []
        for _ in 0..<rounds {
            floorTimes.append(await floor(iterations).seconds / Double(iterations))
            reusedTimes.append(await reusedLeaf(iterations).seconds / Double(iterations))
            freshTimes.append(await freshLeaf(iterations).seconds / Double(iterations))
            bareTimes.append(await bareCall(iterations).seconds / Double(iterations))
            offMainTimes.append(await floorOffMain(iterations).seconds / Double(iterations))
        }
        let calls = await floorActor.calls
        precondition(sink != 0 && calls == 6_000 + 3 * rounds * iterations, "floor calls went missing")
        precondition(parent.children.isEmpty && !reused.interactor.isActive && reused.isLoaded)
        await parent.interactor.deactivate()

        // The floor is measured where routers run, on the main actor; the
        // same Task off the main actor is shown for scale.
        let floorCost = median(floorTimes)
        var table = Table(
            "Leaf napkin lifecycle vs the floor (\(rounds) rounds x \(fmt(Double(iterations), 0)) iterations, medians)",
            columns: ["measure", "per op (us)", "per second", "x floor", "x off-main floor", "target", "result"])
        let offMainFloorCost = median(offMainTimes)
        func row(_ name: String, _ cost: Double, target: Double?) {
            let ratio = cost / floorCost
            table.add(
                name, fmt(cost * 1e6, 2), fmt(1 / cost, 0), fmt(ratio, 2), fmt(cost / offMainFloorCost, 1),
                target.map { "<= \(fmt($0, 1))x" } ?? "-",
                target.map { verdict(ratio <= $0) } ?? "info")
        }
        row("floor: Task awaiting one actor call", floorCost, target: nil)
        row("attach+activate+detach, reused leaf", median(reusedTimes), target: 4)
        row("build+attach+activate+detach, fresh leaf", median(freshTimes), target: nil)
        row("one actor call from the main actor, no Task", median(bareTimes), target: nil)
        row("Task awaiting one actor call, off the main actor", median(offMainTimes), target: nil)
        return table
    }

    /// The floor measured off the main actor: a detached task awaiting one
    /// actor call, awaited from the global executor.
    static func offMainFloor(_ actor: FloorActor, _ count: Int) async -> Duration {
        let start = clock.now
        var sink = 0
        for _ in 0..<count { sink &+= await Task.detached { await actor.call() }.value }
        precondition(sink != 0)
        return clock.now - start
    }

    // MARK: - 2. Trees

    /// A complete tree of `size` napkins with fan-out `fanOut`, built top
    /// down (each napkin attached to its already-active parent) under an
    /// active holder, then torn down: detached from the holder (deepest
    /// first) and released. Returns seconds for (build, teardown).
    @MainActor
    static func tree(size: Int, fanOut: Int, holder: LeafRouter) async -> (build: Double, teardown: Double) {
        var routers: [LeafRouter] = []
        routers.reserveCapacity(size)

        let start = clock.now
        routers.append(makeLeaf())
        await holder.attachChild(routers[0])
        for index in 1..<size {
            let router = makeLeaf()
            await routers[(index - 1) / fanOut].attachChild(router)
            routers.append(router)
        }
        let built = clock.now
        precondition(routers.allSatisfy { $0.interactor.isActive && $0.isLoaded }, "tree not fully active")

        let detachStart = clock.now
        await holder.detachChild(routers[0])
        let detached = clock.now
        precondition(routers.allSatisfy { !$0.interactor.isActive } && holder.children.isEmpty, "tree not torn down")

        let releaseStart = clock.now
        routers.removeAll()
        let released = clock.now
        return ((built - start).seconds, (detached - detachStart).seconds + (released - releaseStart).seconds)
    }

    @MainActor
    static func trees() async -> Table {
        let fanOut = 10
        let holder = makeLeaf()
        await holder.interactor.activate()
        for _ in 0..<5 { _ = await tree(size: 1_000, fanOut: fanOut, holder: holder) }

        // Sizes interleaved, pass by pass, so drift in the machine hits
        // all of them alike; each figure is the repeat with the median total.
        let plan: [(size: Int, perPass: Int)] = [(1_000, 10), (10_000, 2), (100_000, 1)]
        let passes = 3
        var samples = Array(repeating: [(build: Double, teardown: Double)](), count: plan.count)
        for _ in 0..<passes {
            for (slot, (size, perPass)) in plan.enumerated() {
                for _ in 0..<perPass {
                    let (build, teardown) = await tree(size: size, fanOut: fanOut, holder: holder)
                    samples[slot].append((build / Double(size), teardown / Double(size)))
                }
            }
        }
        var results: [(size: Int, build: Double, teardown: Double)] = []
        for (slot, (size, _)) in plan.enumerated() {
            let sorted = samples[slot].sorted { $0.build + $0.teardown < $1.build + $1.teardown }
            let pick = sorted[(sorted.count - 1) / 2]
            results.append((size, pick.build, pick.teardown))
        }
        await holder.interactor.deactivate()

        let base = results[0].build + results[0].teardown
        var table = Table(
            "Build and tear down a tree (fan-out \(fanOut), sizes interleaved over \(passes) passes, median repeat)",
            columns: ["napkins", "build (us/napkin)", "teardown (us/napkin)", "total (us/napkin)", "x 1k", "target", "result"])
        for (size, build, teardown) in results {
            let total = build + teardown
            let ratio = total / base
            table.add(
                fmt(Double(size), 0), fmt(build * 1e6, 2), fmt(teardown * 1e6, 2), fmt(total * 1e6, 2),
                fmt(ratio, 2), size == 1_000 ? "-" : "<= 1.5x", size == 1_000 ? "base" : verdict(ratio <= 1.5))
        }
        return table
    }

    // MARK: - 3. Memory

    /// 100k leaves, attached and active. By default they hang 1,000 each
    /// under 100 active parents (one holder above them): attaching 100k
    /// children to a single parent costs minutes, because `attachChild`
    /// scans the parent's children (see the wide-parent table). Set
    /// `NAPKIN_BENCH_ONE_PARENT=1` to measure the literal one-parent shape.
    @MainActor
    static func memory() async -> Table {
        let count = 100_000
        let onePerParent = ProcessInfo.processInfo.environment["NAPKIN_BENCH_ONE_PARENT"] == "1"
        let perParent = onePerParent ? count : 1_000
        let holder = makeLeaf()
        await holder.interactor.activate()

        // Whole leaves, attached and active.
        trimHeap()
        let rss0 = residentBytes()
        let attachStart = clock.now
        var parents: [LeafRouter] = []
        for _ in 0..<(count / perParent) {
            let parent = makeLeaf()
            await holder.attachChild(parent)
            for _ in 0..<perParent { await parent.attachChild(makeLeaf()) }
            parents.append(parent)
        }
        let attachTime = clock.now - attachStart
        let rss1 = residentBytes()
        precondition(parents.allSatisfy { $0.children.count == perParent && $0.children.allSatisfy { $0.interactable.isActive } })

        let teardownStart = clock.now
        for parent in parents { await holder.detachChild(parent) }
        precondition(parents.allSatisfy { $0.children.allSatisfy { !$0.interactable.isActive } })
        parents.removeAll()
        let teardownTime = clock.now - teardownStart
        await holder.interactor.deactivate()

        // Where the bytes go: each part of a leaf, 100k at a time, from
        // resident memory after handing freed pages back.
        trimHeap()
        var viewControllers: [LeafViewController] = []
        var presenters: [LeafPresenter] = []
        var interactors: [LeafInteractor] = []
        var routers: [LeafRouter] = []
        viewControllers.reserveCapacity(count)
        presenters.reserveCapacity(count)
        interactors.reserveCapacity(count)
        routers.reserveCapacity(count)
        var mark = residentBytes()
        func step() -> Double {
            let now = residentBytes()
            defer { mark = now }
            return Double(now - mark) / Double(count)
        }
        for _ in 0..<count { viewControllers.append(LeafViewController()) }
        let viewControllerBytes = step()
        for index in 0..<count { presenters.append(LeafPresenter(viewController: viewControllers[index])) }
        let presenterBytes = step()
        for index in 0..<count { interactors.append(LeafInteractor(presenter: presenters[index])) }
        let interactorBytes = step()
        for index in 0..<count {
            routers.append(LeafRouter(interactor: interactors[index], viewController: viewControllers[index]))
        }
        let routerBytes = step()
        precondition(routers.count == count && viewControllers.count == count)
        withExtendedLifetime((viewControllers, presenters, interactors, routers)) {}
        routers.removeAll()
        interactors.removeAll()
        presenters.removeAll()
        viewControllers.removeAll()

        // The parents are napkins too: count them.
        let napkins = count + count / perParent
        let rssPerLeaf = Double(rss1 - rss0) / Double(napkins)
        var table = Table(
            onePerParent
                ? "Memory per leaf napkin (\(fmt(Double(count), 0)) live leaves attached to one active parent)"
                : "Memory per leaf napkin (\(fmt(Double(count), 0)) live leaves, 1,000 each under 100 active parents)",
            columns: ["measure", "value", "target", "result"])
        table.add("resident memory per leaf (bytes)", fmt(rssPerLeaf, 0), "<= 2048", verdict(rssPerLeaf <= 2048))
        table.add("  of which view controller (bytes)", fmt(viewControllerBytes, 0), "-", "info")
        table.add("  of which presenter (bytes)", fmt(presenterBytes, 0), "-", "info")
        table.add("  of which interactor + lifecycle (bytes)", fmt(interactorBytes, 0), "-", "info")
        table.add("  of which router (bytes)", fmt(routerBytes, 0), "-", "info")
        table.add("build + attach (us/napkin)", fmt(attachTime.seconds / Double(napkins) * 1e6, 2), "-", "info")
        table.add("detach + release (us/napkin)", fmt(teardownTime.seconds / Double(napkins) * 1e6, 2), "-", "info")
        return table
    }

    // MARK: - Wide parents

    /// Attaching leaves one by one to a single active parent, then
    /// detaching them one by one (last first): the cost of one attach and
    /// of one detach against the number of children the parent holds.
    @MainActor
    static func wideParents() async -> Table {
        let parent = makeLeaf()
        await parent.interactor.activate()
        var table = Table(
            "One wide parent: attach, then detach, N leaves one by one",
            columns: ["children", "attach (us/leaf)", "detach (us/leaf)", "x 1k (attach)", "x 1k (detach)"])
        var base: (attach: Double, detach: Double)?
        for width in [1_000, 4_000, 16_000] {
            var leaves: [LeafRouter] = []
            leaves.reserveCapacity(width)
            for _ in 0..<width { leaves.append(makeLeaf()) }
            let attachStart = clock.now
            for leaf in leaves { await parent.attachChild(leaf) }
            let attach = (clock.now - attachStart).seconds / Double(width)
            precondition(parent.children.count == width)
            let detachStart = clock.now
            for leaf in leaves.reversed() { await parent.detachChild(leaf) }
            let detach = (clock.now - detachStart).seconds / Double(width)
            precondition(parent.children.isEmpty && leaves.allSatisfy { !$0.interactor.isActive })
            let reference = base ?? (attach, detach)
            base = reference
            table.add(
                fmt(Double(width), 0), fmt(attach * 1e6, 2), fmt(detach * 1e6, 2),
                fmt(attach / reference.attach, 2), fmt(detach / reference.detach, 2))
        }
        await parent.interactor.deactivate()
        return table
    }

    // MARK: - 4. State broadcaster

    /// `subscribers` tasks each iterate their own `Subscription` and bump a
    /// shared countdown; the last one resumes the waiting sender. A `send`
    /// round is timed from the `send` call until the last subscriber has the
    /// value; a `deliver` round is the `deliver` call itself (it returns once
    /// every subscriber took the value and came back). Rounds alternate.
    static func broadcast(subscribers: Int, rounds: Int, warmup: Int) async -> (send: [Double], deliver: [Double]) {
        let broadcaster = StateBroadcaster(0)
        let rendezvous = Rendezvous()
        rendezvous.arm(subscribers)
        var consumers: [Task<Void, Never>] = []
        consumers.reserveCapacity(subscribers)
        for _ in 0..<subscribers {
            let subscription = await broadcaster.subscribe()
            consumers.append(Task {
                for await _ in subscription { rendezvous.hit() }
            })
        }
        await rendezvous.wait()  // every subscriber has its replay

        var value = 0
        var sends: [Double] = []
        var deliveries: [Double] = []
        for round in 0..<(warmup + rounds) {
            value += 1
            rendezvous.arm(subscribers)
            let sendStart = clock.now
            await broadcaster.send(value)
            await rendezvous.wait()
            let sendTime = (clock.now - sendStart).seconds

            value += 1
            rendezvous.arm(subscribers)
            let deliverStart = clock.now
            let report = await broadcaster.deliver(value)
            let deliverTime = (clock.now - deliverStart).seconds
            precondition(report.isComplete && report.subscribers == subscribers, "delivery incomplete: \(report)")
            await rendezvous.wait()

            if round >= warmup {
                sends.append(sendTime)
                deliveries.append(deliverTime)
            }
        }
        let last = await broadcaster.value
        precondition(last == value)
        for consumer in consumers { consumer.cancel() }
        for consumer in consumers { await consumer.value }
        return (sends, deliveries)
    }

    static func broadcasts() async -> Table {
        let rounds = 50
        _ = await broadcast(subscribers: 1_000, rounds: 10, warmup: 0)
        let sizes = [1_000, 10_000]
        var results: [(subscribers: Int, send: [Double], deliver: [Double])] = []
        for size in sizes {
            let (send, deliver) = await broadcast(subscribers: size, rounds: rounds, warmup: 5)
            results.append((size, send, deliver))
        }

        var table = Table(
            "StateBroadcaster fan-out (\(rounds) rounds each; nearest-rank p99 of \(rounds) rounds is the slowest one)",
            columns: ["subscribers", "operation", "p50 (ms)", "p99 (ms)", "p50/subscriber (ns)", "x 1k", "target", "result"])
        for (name, pick) in [("send, until all received", \(subscribers: Int, send: [Double], deliver: [Double]).send),
                             ("deliver (awaited)", \(subscribers: Int, send: [Double], deliver: [Double]).deliver)] {
            let base = median(results[0][keyPath: pick]) / Double(results[0].subscribers)
            for result in results {
                let samples = result[keyPath: pick]
                let perSubscriber = median(samples) / Double(result.subscribers)
                let ratio = perSubscriber / base
                let isBase = result.subscribers == sizes[0]
                table.add(
                    fmt(Double(result.subscribers), 0), name,
                    fmt(median(samples) * 1e3, 2), fmt(percentile(samples, 99) * 1e3, 2),
                    fmt(perSubscriber * 1e9, 0), fmt(ratio, 2),
                    isBase ? "-" : "<= 1.5x", isBase ? "base" : verdict(ratio <= 1.5))
            }
        }
        return table
    }
}
