extension String {
    /// This text with each scalar in `replacements` written as its
    /// replacement: the escaping of a metrics label or help text, or of a
    /// JSON string's already-printable content.
    func escaping(_ replacements: [Unicode.Scalar: String]) -> String {
        guard unicodeScalars.contains(where: { replacements[$0] != nil }) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            if let replacement = replacements[scalar] { out += replacement } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
