import Testing
import napkin

@Suite("Kept while active", .timeLimit(.minutes(1)))
struct EndsWithActivationTests {
    @Test("a member kept while active ends once, after willResignActive, and a later activation keeps anew")
    func endsWithTheActivation() async {
        let log = EventLog()
        let interactor = ProbeInteractor { log.append("willResignActive") }
        await interactor.activate()
        let member = Member(log: log)
        #expect(interactor.keep(member))
        #expect(log.all.isEmpty)
        await interactor.deactivate()
        #expect(log.all == ["willResignActive", "ended"])
        await interactor.activate()
        await interactor.deactivate()
        #expect(log.all == ["willResignActive", "ended", "willResignActive"], "a member ends with its own activation only")
    }

    @Test("an inactive interactor ends what it is handed at once; a released one ends what it kept")
    func refusedOrReleased() async {
        let log = EventLog()
        let idle = ProbeInteractor {}
        #expect(!idle.keep(Member(log: log)))
        #expect(log.all == ["ended"])
        var released: ProbeInteractor? = ProbeInteractor {}
        await released?.activate()
        released?.keep(Member(log: log))
        released = nil
        #expect(log.all == ["ended", "ended"])
    }
}

/// Logs its end.
private final class Member: EndsWithActivation {
    private let log: EventLog
    init(log: EventLog) { self.log = log }
    func end() { log.append("ended") }
}
