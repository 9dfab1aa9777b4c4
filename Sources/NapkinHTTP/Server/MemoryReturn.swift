import CMicroHTTPD

/// Gives memory freed after a burst back to the operating system.
///
/// An allocator keeps freed memory in its arenas for reuse (and glibc's by
/// default raises its threshold for using `mmap` each time a large block is
/// freed), so after a burst of uploads or a fan-out to thousands of sessions
/// the process stays at its peak although the memory is free. A server that
/// strangers can make allocate must come back down. napkin pins glibc's
/// `mmap` threshold (large request bodies are mapped, and unmapped when
/// freed) and trims every arena on a slow timer: glibc's `malloc_trim`, and
/// in a process linked with jemalloc (napkin's executables are) a purge of
/// jemalloc's arenas. Each releases whole free pages, in about a
/// millisecond on a heap of a few hundred MiB.
package enum MemoryReturn {
    /// Pins the allocator's `mmap` threshold at 128 KiB. Process-wide; done once.
    static let pinThreshold: Void = {
        napkin_pin_mmap_threshold(128 * 1024)
    }()

    /// Trims the allocator's arenas every `interval` until cancelled.
    static func trimPeriodically(every interval: Duration) -> Task<Void, Never> {
        Task.detached(priority: .background) {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                trim()
            }
        }
    }

    /// Hands whole free pages back now: glibc's arenas, and jemalloc's when
    /// the process links it.
    package static func trim() {
        napkin_malloc_trim()
    }
}
