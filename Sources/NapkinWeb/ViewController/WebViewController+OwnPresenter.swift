import napkin

extension WebViewController {
    /// The view types already reported as their own, unobserved presenter.
    private static var reportedOwnPresenters: Set<ObjectIdentifier> = []

    /// Reports, in debug builds and once per type, a view that is its own
    /// presenter but not `@Observable`: napkin re-renders a fragment when
    /// state that Observation tracks changes, so such a view's own state
    /// would never reach the page.
    func reportUnobservedOwnPresenter() {
        #if DEBUG
        guard self is any Presentable, !(self is any Observable) else { return }
        guard Self.reportedOwnPresenters.insert(ObjectIdentifier(type(of: self))).inserted else { return }
        Diagnostics.report(
            "\(type(of: self)) is its own presenter but not @Observable: body() re-renders only when state that "
                + "Observation tracks changes. Annotate the class @Observable, or keep its state in an @Observable presenter.")
        #endif
    }
}
