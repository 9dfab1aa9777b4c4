import Foundation
import Synchronization

/// Reports awaited deliveries that timed out, in every build: a stalled
/// subscriber is an operational problem, not only a programming one.
public enum StallLog {
    private static let reported = Atomic<Int>(0)

    /// Deliveries reported stalled since the process started (for metrics).
    public static var count: Int { reported.load(ordering: .relaxed) }

    static func report(_ report: DeliveryReport, from broadcaster: Any.Type) {
        reported.add(1, ordering: .relaxed)
        let line = "napkin: \(broadcaster): \(report.stalled) of \(report.subscribers) subscribers stalled; delivery went on without them"
        if let handler = Diagnostics.handler {
            handler(line)
        } else {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}
