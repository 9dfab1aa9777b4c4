/// Hands out fragment ids: `n-1`, `n-2`, … unique in the process, so each
/// fragment's id is stable for as long as its view controller lives.
@MainActor
enum FragmentID {
    private static var next: UInt64 = 0

    static func make() -> String {
        next += 1
        return "n-\(next)"
    }
}
