/// A wait of NapkinTesting that ran out of time: what it waited for, how
/// long, and the line of the test that waited (every wait takes the
/// caller's `#fileID` and `#line`), so the failure names the wait rather
/// than only the `@Test` it happened in.
///
/// ```
/// NapkinWebTests/TabTests.swift:42: waited 10.0 seconds for a patch on the stream of tab 3KJ…
/// ```
public struct WaitExpired: Error, CustomStringConvertible {
    /// What never came, e.g. "a patch on the stream of tab 3KJ…".
    public let awaited: String
    /// How long the wait was bounded to.
    public let limit: Duration
    /// What came instead, if anything (the patches skipped).
    public let detail: String?
    /// The file of the test that waited, as `#fileID` spells it.
    public let fileID: String
    /// The line of the test that waited.
    public let line: Int

    /// A wait for `awaited` that ended after `limit`, made at `fileID`:`line`.
    public init(awaited: String, limit: Duration, detail: String? = nil, fileID: String, line: Int) {
        self.awaited = awaited
        self.limit = limit
        self.detail = detail
        self.fileID = fileID
        self.line = line
    }

    /// `Module/File.swift:line: waited <limit> for <what> (<detail>)`.
    public var description: String {
        "\(fileID):\(line): waited \(limit) for \(awaited)" + (detail.map { " (\($0))" } ?? "")
    }
}
