/// The names a napkin's files and types are made of, from its name.
struct Names {
    /// `PitBoard`
    let name: String

    /// `PitBoardNapkin`, the start of every type name.
    var prefix: String { "\(name)Napkin" }

    /// `pitBoard`, for properties.
    var variable: String { name.prefix(1).lowercased() + name.dropFirst() }

    /// `pit-board`, for the slot and the CSS class.
    var slot: String { words.map { $0.lowercased() }.joined(separator: "-") }

    /// `Pit Board`, for people.
    var title: String { words.joined(separator: " ") }

    /// `PitBoardNapkinTests`, the test suite.
    var suite: String { "\(prefix)Tests" }

    /// The types the napkin declares, which must not exist yet.
    func types(headless: Bool) -> [String] {
        let kinds = headless ? ["Dependency", "Builder", "Interactor", "Listener"]
            : ["Dependency", "Builder", "Interactor", "Presenter", "ViewController"]
        return kinds.map { prefix + $0 }
    }

    /// Every name the napkin's files may have, in its folder: the one file,
    /// and the files of `--split` (the names `sources` writes).
    func files(headless: Bool) -> [String] {
        (sources(headless: headless, split: false) + sources(headless: headless, split: true)).map(\.name)
    }

    /// The name split before each upper-case letter that follows a lower-case one or a digit.
    private var words: [String] {
        var words: [String] = []
        var previous: Character?
        for character in name {
            if let previous, character.isUppercase, previous.isLowercase || previous.isNumber {
                words.append("")
            }
            if words.isEmpty { words.append("") }
            words[words.count - 1].append(character)
            previous = character
        }
        return words
    }
}
