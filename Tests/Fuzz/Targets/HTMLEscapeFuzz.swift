// fuzz-max-len: 1024
@testable import NapkinWeb

/// The HTML escaper: escaped text holds no `<`, `>`, `"`, `'`, and no `&` that
/// does not start one of the escaper's own entities, so it cannot open a tag,
/// close an attribute or smuggle an entity; and unescaping gives the text back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    let escaped = HTML.escape(text)
    require(HTML(text: text).rendered == escaped, "HTML(text:) differs from escape for \(show(text))")
    let interpolated: HTML = "<p title=\"\(text)\">\(text)</p>"
    require(interpolated.rendered == "<p title=\"\(escaped)\">\(escaped)</p>", "interpolation differs for \(show(text))")

    let bytes = Array(escaped.utf8)
    var unescaped: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        require(!"<>\"'".utf8.contains(byte), "raw \(Character(Unicode.Scalar(byte))) in \(show(escaped))")
        if byte == UInt8(ascii: "&") {
            let rest = bytes[index...]
            guard let (entity, character) = entities.first(where: { rest.starts(with: $0.0.utf8) }) else {
                fatalError("bare '&' in \(show(escaped))")
            }
            unescaped.append(character)
            index += entity.utf8.count
        } else {
            unescaped.append(byte)
            index += 1
        }
    }
    require(unescaped == Array(text.utf8), "\(show(text)) escaped as \(show(escaped)) does not unescape back")
    return 0
}

private let entities: [(String, UInt8)] = [
    ("&amp;", UInt8(ascii: "&")), ("&lt;", UInt8(ascii: "<")), ("&gt;", UInt8(ascii: ">")),
    ("&quot;", UInt8(ascii: "\"")), ("&#39;", UInt8(ascii: "'")),
]
