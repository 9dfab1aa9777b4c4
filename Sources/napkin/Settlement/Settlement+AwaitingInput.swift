extension Settlement {
    /// Reports that the current bound task has applied its immediate work
    /// and now only waits for input, so an event in progress stops waiting
    /// for it at once.
    ///
    /// A settlement finds a parked task by itself (see ``Settlement``); say
    /// it here to skip that look, or for a task whose wait it would not
    /// recognise. Broadcaster subscriptions report this by themselves when
    /// they wait. Outside a settlement it does nothing; calling it again is
    /// free.
    public static func awaitingInput() {
        Token.current?.leave()
    }
}
