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
        _ = await reusedLeaf(2_000)
        _ = await freshLeaf(2_000)

        var floorTimes: [Double] = []
        var bareTimes: [Double] = []
        var reusedTimes: [Double] = []
        var freshTimes: [Double] = []
        for _ in 0..<rounds {
            floorTimes.append(await floor(iterations).seconds / Double(iterations))
            reusedTimes.append(await reusedLeaf(iterations).seconds / Double(iterations))
            freshTimes.append(await freshLeaf(iterations).seconds / Double(iterations))
            bareTimes.append(await bareCall(iterations).seconds / Double(iterations))
        }
        let calls = await floorActor.calls
        precondition(sink != 0 && calls == 4_000 + 2 * rounds * iterations, "floor calls went missing")
        precondition(parent.children.isEmpty && !reused.interactor.isActive && reused.isLoaded)
        await parent.interactor.deactivate()

        let floorCost = median(floorTimes)
        var table = Table(
            "Leaf napkin lifecycle vs the floor (\(rounds) rounds x \(fmt(Double(iterations), 0)) iterations, medians)",
            columns: ["measure", "per op (us)", "per second", "x floor", "target", "result"])
        func row(_ name: String, _ cost: Double, target: Double?) {
            let ratio = cost / floorCost
            table.add(
                name, fmt(cost * 1e6, 2), fmt(1 / cost, 0), fmt(ratio, 2),
                target.map { "<= \(fmt($0, 1))x" } ?? "-",
                target.map { verdict(ratio <= $0) } ?? "info")
        }
        row("floor: Task awaiting one actor call", floorCost, target: nil)
        row("attach+activate+detach, reused leaf", median(reusedTimes), target: 4)
        row("build+attach+activate+detach, fresh leaf", median(freshTimes), target: nil)
        row("one actor call, no Task (for scale)", median(bareTimes), target: nil)
        return table
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

        let plan: [(size: Int, repeats: Int)] = [(1_000, 30), (10_000, 6), (100_000, 3)]
        var results: [(size: Int, build: Double, teardown: Double)] = []
        for (size, repeats) in plan {
            var builds: [Double] = []
            var teardowns: [Double] = []
            var totals: [Double] = []
            for _ in 0..<repeats {
                let (build, teardown) = await tree(size: size, fanOut: fanOut, holder: holder)
                builds.append(build / Double(size))
                teardowns.append(teardown / Double(size))
                totals.append((build + teardown) / Double(size))
            }
            // The repeat with the median total, so build and teardown add up.
            let pick = totals.indices.sorted { totals[$0] < totals[$1] }[(repeats - 1) / 2]
            results.append((size, builds[pick], teardowns[pick]))
        }
        await holder.interactor.deactivate()

        let base = results[0].build + results[0].teardown
        var table = Table(
            "Build and tear down a tree (fan-out \(fanOut), median repeat)",
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

    @MainActor
    static func memory() async -> Table {
        let count = 100_000
        let holder = makeLeaf()
        await holder.interactor.activate()
        var parent: LeafRouter? = makeLeaf()
        await holder.attachChild(parent!)

        // Whole leaves, attached and active under one parent.
        trimHeap()
        let rss0 = residentBytes()
        let attachStart = clock.now
        for _ in 0..<count {
            await parent!.attachChild(makeLeaf())
        }
        let attachTime = clock.now - attachStart
        let rss1 = residentBytes()
        precondition(parent!.children.count == count && parent!.children.allSatisfy { $0.interactable.isActive })

        let teardownStart = clock.now
        await holder.detachChild(parent!)
        precondition(parent!.children.allSatisfy { !$0.interactable.isActive })
        parent = nil
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

        let rssPerLeaf = Double(rss1 - rss0) / Double(count)
        var table = Table(
            "Memory per leaf napkin (\(fmt(Double(count), 0)) live leaves attached to one active parent)",
            columns: ["measure", "value", "target", "result"])
        table.add("resident memory per leaf (bytes)", fmt(rssPerLeaf, 0), "<= 2048", verdict(rssPerLeaf <= 2048))
        table.add("  of which view controller (bytes)", fmt(viewControllerBytes, 0), "-", "info")
        table.add("  of which presenter (bytes)", fmt(presenterBytes, 0), "-", "info")
        table.add("  of which interactor + lifecycle (bytes)", fmt(interactorBytes, 0), "-", "info")
        table.add("  of which router (bytes)", fmt(routerBytes, 0), "-", "info")
        table.add("attach to the one parent (us/leaf)", fmt(attachTime.seconds / Double(count) * 1e6, 2), "-", "info")
        table.add("tear down parent + leaves (us/leaf)", fmt(teardownTime.seconds / Double(count) * 1e6, 2), "-", "info")
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
