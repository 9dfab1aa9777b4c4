import NapkinWeb

/// Questions tests ask of a JSON snapshot of a session's napkin tree.
extension JSONValue {
    /// The napkin subtree of a page snapshot (`{"tree": …}`), or `self`.
    public var tree: JSONValue { self["tree"] ?? self }

    /// Every napkin's name, depth first, parents before children.
    public var napkinNames: [String] {
        let node = tree
        var names: [String] = node["name"]?.stringValue.map { [$0] } ?? []
        if case .array(let children)? = node["children"] {
            for child in children { names += child.napkinNames }
        }
        return names
    }

    /// The first napkin named `name`, depth first.
    public func napkin(named name: String) -> JSONValue? {
        let node = tree
        if node["name"]?.stringValue == name { return node }
        if case .array(let children)? = node["children"] {
            for child in children {
                if let found = child.napkin(named: name) { return found }
            }
        }
        return nil
    }
}
