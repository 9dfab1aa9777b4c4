/// Fragment ids from a fragment's place in its tab's tree, not from a
/// counter or a Swift type: a digest of the slot and region names on the
/// path from the root (`/content/board~pit`). A page rendered by one
/// process names the same fragments as the tree another process rebuilds
/// for the same path, and a type renamed between two deploys keeps its
/// ids, so a page's forms still post after a restart.
///
/// The digest (48 bits of FNV-1a, as `n-` and 12 hex digits) keeps ids —
/// which every patch and form carries — short however deep the tree is.
/// A fragment keeps its place as the running digest of that path (FNV-1a
/// reads bytes one after another, so a child's digest continues its
/// parent's): no fragment holds the path itself.
enum FragmentID {
    static let root: (place: UInt64, id: String) = named(FNV1a.hash("/".utf8))

    static func child(of parent: UInt64, slot: String) -> (place: UInt64, id: String) {
        named(FNV1a.hash(step("/", slot), continuing: parent))
    }

    static func region(of parent: UInt64, name: String) -> (place: UInt64, id: String) {
        named(FNV1a.hash(step("~", name), continuing: parent))
    }

    static func shared(in parent: UInt64, name: String) -> String {
        named(FNV1a.hash(step("#", name), continuing: parent)).id
    }

    /// The id of the message a form shows when its action failed: one per
    /// fragment, action and form key, whatever characters those hold.
    static func problem(in fragmentID: String, action: String, key: String?) -> String {
        "\(fragmentID)-error-" + digest("\(action)\u{0}\(key ?? "")")
    }

    /// The id of the control a field helper renders for field `name` of a
    /// form of `action` (and `key`) in the fragment.
    static func field(in fragmentID: String, action: String, key: String?, name: String) -> String {
        "\(fragmentID)-field-" + digest("\(action)\u{0}\(key ?? "")\u{0}\(name)")
    }

    /// One step of a path: its kind, and a name whose length comes first,
    /// so no name can pose as two steps (`a/b` as `a`, then `b`).
    private static func step(_ kind: String, _ name: String) -> String.UTF8View {
        "\(kind)\(name.utf8.count):\(name)".utf8
    }

    private static func named(_ place: UInt64) -> (place: UInt64, id: String) {
        (place, "n-" + hex48(place))
    }

    /// 48 bits of FNV-1a over `text`, as 12 hex digits.
    private static func digest(_ text: String) -> String {
        hex48(FNV1a.hash(text.utf8))
    }

    /// The low 48 bits of `hash`, as 12 hex digits.
    private static func hex48(_ hash: UInt64) -> String {
        let digits = String(hash & 0xffff_ffff_ffff, radix: 16)
        return String(repeating: "0", count: 12 - digits.count) + digits
    }
}

/// The 64-bit FNV-1a hash: quick, well spread, and not meant to resist
/// anyone choosing the input (napkin digests its own names and files).
enum FNV1a {
    /// The hash of `bytes`; with `continuing`, of the bytes that hash was
    /// taken over followed by `bytes`.
    static func hash(_ bytes: some Sequence<UInt8>, continuing start: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = start
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
