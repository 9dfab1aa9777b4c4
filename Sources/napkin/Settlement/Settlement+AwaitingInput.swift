extension Settlement {
    /// Reports that the current bound task has applied its immediate work
    /// and now waits for input napkin cannot see — an `Observations`
    /// sequence, a timer, a socket — so an event in progress stops waiting
    /// for it.
    ///
    /// Broadcaster subscriptions report this by themselves when they wait;
    /// call it in a bound task before awaiting anything else that may never
    /// come. Outside a settlement it does nothing; calling it again is free.
    public static func awaitingInput() {
        Token.current?.leave()
    }
}
