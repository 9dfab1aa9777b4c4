/// Decodes `application/x-www-form-urlencoded` bodies into `Decodable` types.
///
/// napkin's own decoder, so libmicrohttpd's POST processor (CVE-2023-27371 in
/// 0.9.75) is never involved. It supports what HTML forms produce: strings,
/// integers, doubles, booleans (`on`/`true`/`1`; an absent checkbox decodes as
/// `false`), optionals (absent → `nil`), string-backed enums, and arrays from
/// repeated keys. Nested objects are not supported.
public struct FormDecoder: Sendable {
    /// A decoder; it has no options.
    public init() {}

    /// Decodes `type` from an urlencoded body; throws a `DecodingError` (or a malformed-input error) on failure.
    public func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        let fields: [(name: String, value: String)]
        do { fields = try URLEncoding.parseForm(body) } catch {
            throw HTTPError(.badRequest, "Malformed form: \(error.reason)")
        }
        return try decode(type, fields: fields)
    }

    /// Decodes `type` from a request's form: its multipart form when it
    /// has one (fields and files), otherwise its urlencoded body.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request) throws -> T {
        guard let multipart = request.multipart else { return try decode(type, from: request.body) }
        return try decode(type, fields: multipart.fields, files: multipart.files)
    }

    /// Decodes `type` from a form's fields and files (a multipart post's):
    /// an ``UploadedFile`` field decodes from the file of its name.
    public func decode<T: Decodable>(
        _ type: T.Type, fields: [(name: String, value: String)], files: [(name: String, file: UploadedFile)] = []
    ) throws -> T {
        var table: [String: [String]] = [:]
        for field in fields { table[field.name, default: []].append(field.value) }
        var fileTable: [String: [UploadedFile]] = [:]
        for file in files { fileTable[file.name, default: []].append(file.file) }
        return try T(from: FormFieldsDecoder(table: table, files: fileTable, codingPath: []))
    }

    /// A short, client-safe description of a decoding failure ("missing
    /// field 'name'"): never the decoder's own text, which names Swift types.
    public static func shortReason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing field '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "bad value for '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty ? "unreadable data" : "bad value for '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        default: "unreadable data"
        }
    }
}

/// The top-level decoder: a keyed view of the form's fields.
private struct FormFieldsDecoder: Decoder {
    let table: [String: [String]]
    let files: [String: [UploadedFile]]
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FormKeyedContainer<Key>(table: table, files: files, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a form is not a list"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "a form is not a single value"))
    }
}

private struct FormKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let table: [String: [String]]
    let files: [String: [UploadedFile]]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { Set(table.keys).union(files.keys).compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { table[key.stringValue] != nil || files[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        // An unchecked checkbox is simply absent from the form.
        guard let values = table[key.stringValue] else { return false }
        return try FormFieldValueDecoder(values: values, codingPath: codingPath + [key]).decodeBool()
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let values = table[key.stringValue] ?? []
        let files = files[key.stringValue] ?? []
        if values.isEmpty, files.isEmpty, !(T.self is any ExpressibleByArrayLiteral.Type) {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return try T(from: FormFieldValueDecoder(values: values, files: files, codingPath: codingPath + [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath + [key], debugDescription: "nested objects are not supported in forms"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        FieldListContainer(values: table[key.stringValue] ?? [], files: files[key.stringValue] ?? [], codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { FormFieldsDecoder(table: table, files: files, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        FormFieldsDecoder(table: table, files: files, codingPath: codingPath + [key])
    }
}

/// Decodes one field: its last value as a scalar, or all its values as a
/// list; its files, when it is a file field (see ``UploadedFile``).
struct FormFieldValueDecoder: Decoder, SingleValueDecodingContainer {
    let values: [String]
    var files: [UploadedFile] = []
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "nested objects are not supported in forms"))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        FieldListContainer(values: values, files: files, codingPath: codingPath)
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    private var text: String { values.last ?? "" }

    private func mismatch<T>(_ type: T.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "cannot read '\(text)' as \(type)"))
    }

    func decodeNil() -> Bool { values.isEmpty && files.isEmpty }

    func decodeBool() throws -> Bool {
        switch text.lowercased() {
        case "on", "true", "1", "yes": return true
        case "off", "false", "0", "no", "": return false
        default: throw mismatch(Bool.self)
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeBool() }
    func decode(_ type: String.Type) throws -> String { text }
    func decode(_ type: Double.Type) throws -> Double {
        guard let v = Double(text.trimmingSpaces), v.isFinite else { throw mismatch(type) }
        return v
    }
    func decode(_ type: Float.Type) throws -> Float {
        guard let v = Float(text.trimmingSpaces), v.isFinite else { throw mismatch(type) }
        return v
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let integer = type as? any FixedWidthInteger.Type {
            guard let v = integer.init(text.trimmingSpaces, radix: 10) else { throw mismatch(type) }
            return v as! T
        }
        return try T(from: self)
    }
}

/// A field's values as a list: its files when it has only files.
private struct FieldListContainer: UnkeyedDecodingContainer {
    let values: [String]
    let files: [UploadedFile]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(values: [String], files: [UploadedFile] = [], codingPath: [any CodingKey]) {
        self.values = values
        self.files = values.isEmpty ? files : []
        self.codingPath = codingPath
    }

    var count: Int? { values.isEmpty ? files.count : values.count }
    var isAtEnd: Bool { currentIndex >= count! }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "no more values"))
        }
        let value =
            values.isEmpty
            ? try FormFieldValueDecoder(values: [], files: [files[currentIndex]], codingPath: codingPath).decode(type)
            : try FormFieldValueDecoder(values: [values[currentIndex]], codingPath: codingPath).decode(type)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "nested objects are not supported in forms"))
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "nested lists are not supported in forms"))
    }
    mutating func superDecoder() throws -> any Decoder { FormFieldValueDecoder(values: values, files: files, codingPath: codingPath) }
}

private extension String {
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
