#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reports a value napkin refused to take from a shared store (a session
/// record, a bus message): one short line on standard error for the first
/// of each kind in a process, so a flood of bad values cannot flood the log.
@_spi(Napkin) public enum RefusedInput {
    private static let reported = Locked<Set<String>>([])

    /// Notes that a value of `kind` ("session record", "bus message on
    /// state.pit") was refused because of `why`; only the first is logged.
    public static func report(_ kind: String, _ why: String) {
        guard reported.withLock({ $0.insert(kind).inserted }) else { return }
        let line = Array("napkin: ignored a \(kind) from the shared store: \(why) (later ones are not logged)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Whether a value of `kind` has been refused in this process.
    public static func wasReported(_ kind: String) -> Bool {
        reported.withLock { $0.contains(kind) }
    }
}
