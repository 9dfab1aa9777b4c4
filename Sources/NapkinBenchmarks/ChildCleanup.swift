import Foundation

/// Ends the benchmark's child processes (the servers and clients it starts)
/// when the benchmark itself is stopped by SIGINT or SIGTERM (`timeout`
/// sends the latter): nothing else ties them to its life, and a server left
/// running loads the machine every later measurement runs on.
enum ChildCleanup {
    /// Installs the handlers; keep what it returns for as long as they
    /// should stay (the process's life).
    static func install() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                killDescendants(of: getpid())
                exit(128 + sig)
            }
            source.resume()
            return source
        }
    }

    /// Kills every descendant of `pid`, deepest first.
    private static func killDescendants(of pid: pid_t) {
        for child in children(of: pid) {
            killDescendants(of: child)
            kill(child, SIGKILL)
        }
    }

    /// The children of `pid`, from each of its threads' `/proc` entry.
    private static func children(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [pid_t] in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }
}
