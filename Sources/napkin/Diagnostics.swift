import Foundation

/// Where napkin reports misuse that it tolerates (attaching a child twice,
/// detaching a stranger, a web view that is its own presenter but not
/// `@Observable`). Reports are made in debug builds only.
///
/// The default writes to standard error. Tests and apps can redirect the
/// reports for the scope of a task with `Diagnostics.$handler.withValue`.
public enum Diagnostics {
    /// Receives each diagnostic in the current task; standard error when `nil`.
    @TaskLocal public static var handler: (@Sendable (String) -> Void)?

    /// Reports `message`; napkin's modules report through it.
    package static func report(_ message: @autoclosure () -> String) {
        #if DEBUG
        let text = "napkin: " + message()
        if let handler {
            handler(text)
        } else {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
        #endif
    }
}
