extension String {
    /// The text's UTF-8 bytes, for binary-argument commands and payloads.
    var bytes: [UInt8] { Array(utf8) }
}
