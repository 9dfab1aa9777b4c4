import NapkinTesting

extension HTMLForm {
    /// The fields to post for this form, as a test tampers with them: the
    /// form's own fields, those named in `changes` left out, then each change
    /// with a value (by name), then `extra` as given. A `nil` change drops
    /// the field.
    func posting(_ changes: [String: String?] = [:], adding extra: [(String, String)] = []) -> [(String, String)] {
        var posted = fields.filter { changes[$0.name] == nil }.map { ($0.name, $0.value) }
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
            if let value { posted.append((name, value)) }
        }
        return posted + extra
    }
}
