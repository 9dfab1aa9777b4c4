/// Why an ``HTTPServer`` could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// A sentence naming the address and the operating system's reason.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
