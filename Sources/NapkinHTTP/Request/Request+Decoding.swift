import Foundation

extension Request {
    /// The media type of the body (`Content-Type` without parameters, lowercased), if any.
    public var mediaType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        return type[...].trimmingSpaces.lowercased()
    }

    /// Decodes the body by its `Content-Type`: urlencoded and multipart
    /// forms with ``FormDecoder`` (a multipart form's files as
    /// ``UploadedFile`` fields), or JSON.
    ///
    /// Throws ``HTTPError`` so that a handler can simply `try` it: `415` for any other
    /// type, `400` with a short reason for a body that does not decode.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch mediaType {
        case "multipart/form-data":
            guard let multipart else { throw Self.multipartUnread }
            do { return try FormDecoder().decode(type, fields: multipart.fields, files: multipart.files) } catch let error as HTTPError {
                throw error
            } catch {
                throw HTTPError(.badRequest, "Malformed form: \(FormDecoder.shortReason(error))")
            }
        case "application/x-www-form-urlencoded":
            do { return try FormDecoder().decode(type, from: body) } catch let error as HTTPError { throw error } catch {
                throw HTTPError(.badRequest, "Malformed form: \(FormDecoder.shortReason(error))")
            }
        case "application/json":
            return try decodeJSONBody(type)
        default:
            throw HTTPError(.unsupportedMediaType, "Unsupported Media Type: expected a form or JSON")
        }
    }

    /// Decodes a JSON body, and only a JSON one: `415` for any other
    /// `Content-Type`, `400` with a short reason for JSON that does not decode.
    ///
    /// Use it for a JSON route that changes something. A form, `text/plain`
    /// or multipart post is a "simple" request, which any website can make
    /// from a visitor's browser without asking; a JSON one needs a CORS
    /// preflight first, which napkin answers for no other site.
    public func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        guard mediaType == "application/json" else {
            throw HTTPError(.unsupportedMediaType, "Unsupported Media Type: send JSON, with Content-Type: application/json")
        }
        return try decodeJSONBody(type)
    }

    /// The body read as JSON, whatever its `Content-Type`; `400` with a
    /// short reason when it does not decode.
    private func decodeJSONBody<T: Decodable>(_ type: T.Type) throws -> T {
        do { return try JSONDecoder().decode(type, from: Data(body)) } catch {
            throw HTTPError(.badRequest, "Malformed JSON: \(FormDecoder.shortReason(error))")
        }
    }

    /// A multipart post that did not come through napkin's server, which
    /// is what reads multipart bodies.
    private static var multipartUnread: HTTPError {
        HTTPError(.unsupportedMediaType, "Unsupported Media Type: a multipart body must come through the server")
    }

    /// The fields of an urlencoded or multipart body, in order (repeated names repeat).
    /// Throws `415` when the body is not a form and `400` when it is malformed.
    public func formFields() throws -> [(name: String, value: String)] {
        if mediaType == "multipart/form-data" {
            guard let multipart else { throw Self.multipartUnread }
            return multipart.fields
        }
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw HTTPError(.unsupportedMediaType, "Unsupported Media Type: expected a form")
        }
        do { return try URLEncoding.parseForm(body) } catch {
            throw HTTPError(.badRequest, "Malformed form: \(error.reason)")
        }
    }
}
