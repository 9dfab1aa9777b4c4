/// A `multipart/form-data` body as napkin received it: its text fields in
/// memory and its files on disk, in the order they came.
public struct MultipartForm: Sendable {
    /// The text fields, in order (repeated names repeat).
    public var fields: [(name: String, value: String)]
    /// The files, by field name, in order.
    public var files: [(name: String, file: UploadedFile)]

    /// A form from its parts.
    public init(fields: [(name: String, value: String)] = [], files: [(name: String, file: UploadedFile)] = []) {
        self.fields = fields
        self.files = files
    }
}
