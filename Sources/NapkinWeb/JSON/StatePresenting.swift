/// A presenter (or view controller) whose state napkin includes in JSON
/// snapshots of the tree: `Accept: application/json` on any page URL.
@MainActor
public protocol StatePresenting: AnyObject {
    /// The state as a value; keep it to what a client may see.
    associatedtype State: Encodable
    /// The current state.
    var state: State { get }
}
