#if canImport(Glibc)
import Glibc

/// What napkin's tests add to the `posix_spawn` of a child process
/// (package access: for napkin's own tests).
///
/// `posix_spawn` hands a child every descriptor not marked close-on-exec.
/// A child that outlives the moment (a test's `redis-server`, a shell
/// running the README's examples) then holds other tests' sockets open,
/// and a connection one side closed stays open for the other.
package enum SpawnActions {
    /// Adds "close every descriptor from 3 on" to `actions`: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which
    /// the Glibc module does not export, so it is looked up by name.
    package static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            fatalError("napkin needs glibc 2.34 or later to close a child's inherited descriptors")
        }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }
}
#endif
