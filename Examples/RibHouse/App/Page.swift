import NapkinWeb

/// The pages of the house. Routers match paths against these, so a path
/// that is not here is a 404 whether the guest is signed in or not.
enum Page: CaseIterable {
    case menu
    case pitBoard

    /// The page at `path`, if the house has one.
    init?(_ path: WebPath) {
        switch path.segments {
        case []: self = .menu
        case ["pit"]: self = .pitBoard
        default: return nil
        }
    }

    var path: String {
        switch self {
        case .menu: "/"
        case .pitBoard: "/pit"
        }
    }

    var title: String {
        switch self {
        case .menu: "Menu"
        case .pitBoard: "Pit Board"
        }
    }
}
