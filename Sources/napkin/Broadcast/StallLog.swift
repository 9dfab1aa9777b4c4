import Foundation

/// Reports awaited deliveries that timed out, in every build: a stalled
/// subscriber is an operational problem, not only a programming one.
enum StallLog {
    static func report(_ report: DeliveryReport, from broadcaster: Any.Type) {
        let line = "napkin: \(broadcaster): \(report.stalled) of \(report.subscribers) subscribers stalled; delivery went on without them"
        if let handler = Diagnostics.handler {
            handler(line)
        } else {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}
