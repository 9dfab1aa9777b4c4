import CMicroHTTPD
@_spi(Napkin) import NapkinSupport

/// Everything napkin tracks for one request on one connection, from the request
/// line to the completed callback. libmicrohttpd carries it in `con_cls`.
///
/// Its mutable state is behind a lock (`Locked`, a pthread mutex): libmicrohttpd's thread fills the body
/// and makes the suspend decision, while the Swift task that runs the handler
/// delivers the response, possibly on another thread.
final class RequestContext: Sendable {
    enum Phase {
        /// Headers and body are still arriving.
        case receiving
        /// The handler runs and the access handler has not returned yet.
        case running
        /// The connection is suspended, waiting for the handler's response.
        case suspended
        /// A response has been queued (or dropped because the connection went away).
        case delivered
    }

    struct State {
        var started = false
        var body: [UInt8] = []
        var discarded = 0
        var tooLarge = false
        /// The server's budget for bodies still arriving was spent.
        var overBudget = false
        /// Bytes of this body counted against that budget.
        var reserved = 0
        var phase = Phase.receiving
        var ready: Response?
        var pump: BodyPump?
        /// A multipart body's parts: its files belong to the request until
        /// the completed callback removes them.
        var spool: UploadSpool?
        /// The socket in the loop's hang-up watch while the spool's body arrives.
        var uploadSocket: Int32?
        var isHead = false
        /// Handed to a handler's task (and so in the server's registry).
        var handedOff = false
    }

    /// The request target exactly as sent, from libmicrohttpd's URI log callback.
    let target: String
    /// The address of the `MHD_Connection`: an address, not a reference. It is only
    /// used on libmicrohttpd's thread inside callbacks, or while the connection is
    /// suspended (when libmicrohttpd allows other threads to queue and resume).
    let connection: UInt
    /// The loop that runs the connection, woken after resuming it from elsewhere.
    let loop: ServerLoop?
    let state = Locked(State())

    init(target: String, connection: OpaquePointer?) {
        self.target = target
        loop = ServerLoop.current
        self.connection = UInt(bitPattern: connection.map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0)
    }

    var connectionPointer: OpaquePointer? {
        OpaquePointer(bitPattern: connection)
    }
}
