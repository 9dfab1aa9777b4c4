/// Fragment ids from a fragment's place in its tab's tree, not from a
/// counter: a digest of the path of slots and napkin names from the root
/// (`LaunchNapkin/content:LoggedInNapkin~pit`). A page rendered by one
/// process names the same fragments as the tree another process rebuilds
/// for the same path, so its forms still post after a restart.
///
/// The digest (48 bits of FNV-1a, as `n-` and 12 hex digits) keeps ids —
/// which every patch and form carries — short however deep the tree is.
enum FragmentID {
    static func root(_ napkinName: String) -> (place: String, id: String) {
        named(napkinName)
    }

    static func child(of parent: String, slot: String, napkinName: String) -> (place: String, id: String) {
        named("\(parent)/\(slot):\(napkinName)")
    }

    static func region(of parent: String, name: String) -> (place: String, id: String) {
        named("\(parent)~\(name)")
    }

    static func shared(in parent: String, name: String) -> String {
        named("\(parent)#\(name)").id
    }

    /// The id of the message a form shows when its action failed: one per
    /// fragment, action and form key, whatever characters those hold.
    static func problem(in fragmentID: String, action: String, key: String?) -> String {
        "\(fragmentID)-error-" + digest("\(action)\u{0}\(key ?? "")")
    }

    private static func named(_ place: String) -> (place: String, id: String) {
        (place, "n-" + digest(place))
    }

    /// 48 bits of FNV-1a over `text`, as 12 hex digits.
    private static func digest(_ text: String) -> String {
        let digits = String(FNV1a.hash(text.utf8) & 0xffff_ffff_ffff, radix: 16)
        return String(repeating: "0", count: 12 - digits.count) + digits
    }
}

/// The 64-bit FNV-1a hash: quick, well spread, and not meant to resist
/// anyone choosing the input (napkin digests its own names and files).
enum FNV1a {
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
