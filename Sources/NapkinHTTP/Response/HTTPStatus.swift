/// An HTTP status: the numeric code that clients act on, and a reason phrase for people.
public struct HTTPStatus: Hashable, Sendable {
    /// The three-digit status code.
    public let code: Int
    /// The reason phrase; it does not take part in equality, since clients must ignore it.
    public var reason: String

    /// A status with the standard reason phrase for `code` (or "Unknown").
    public init(code: Int) {
        self.code = code
        self.reason = HTTPStatus.standardReason(code)
    }

    /// A status with a custom reason phrase.
    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Whether the two statuses have the same code; the reason phrase is ignored.
    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, as ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `200` OK: the request succeeded.
    public static let ok = HTTPStatus(code: 200)
    /// `201` Created: a new resource was made.
    public static let created = HTTPStatus(code: 201)
    /// `202` Accepted: taken, to be done later.
    public static let accepted = HTTPStatus(code: 202)
    /// `204` No Content: done, with no body (napkin's answer to an action posted by its client).
    public static let noContent = HTTPStatus(code: 204)
    /// `206` Partial Content: the requested byte range.
    public static let partialContent = HTTPStatus(code: 206)
    /// `301` Moved Permanently.
    public static let movedPermanently = HTTPStatus(code: 301)
    /// `302` Found: a temporary redirect.
    public static let found = HTTPStatus(code: 302)
    /// `303` See Other: a redirect to `GET` another page (after a form post).
    public static let seeOther = HTTPStatus(code: 303)
    /// `304` Not Modified: the client's cached copy is current.
    public static let notModified = HTTPStatus(code: 304)
    /// `307` Temporary Redirect, keeping the method.
    public static let temporaryRedirect = HTTPStatus(code: 307)
    /// `308` Permanent Redirect, keeping the method.
    public static let permanentRedirect = HTTPStatus(code: 308)
    /// `400` Bad Request: the request cannot be read.
    public static let badRequest = HTTPStatus(code: 400)
    /// `401` Unauthorized: credentials are needed.
    public static let unauthorized = HTTPStatus(code: 401)
    /// `403` Forbidden: refused (a missing CSRF token, a cross-origin post).
    public static let forbidden = HTTPStatus(code: 403)
    /// `404` Not Found.
    public static let notFound = HTTPStatus(code: 404)
    /// `405` Method Not Allowed: the path has routes for other methods.
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// `406` Not Acceptable: no representation the client accepts.
    public static let notAcceptable = HTTPStatus(code: 406)
    /// `409` Conflict with the resource's current state.
    public static let conflict = HTTPStatus(code: 409)
    /// `410` Gone: no longer here (a tab the server released).
    public static let gone = HTTPStatus(code: 410)
    /// `413` Payload Too Large: the body is over the limit.
    public static let payloadTooLarge = HTTPStatus(code: 413)
    /// `415` Unsupported Media Type: a body of a type the handler does not take.
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    /// `416` Range Not Satisfiable: the byte range lies outside the file.
    public static let rangeNotSatisfiable = HTTPStatus(code: 416)
    /// `422` Unprocessable Entity: well formed, but refused (a form with a problem).
    public static let unprocessableEntity = HTTPStatus(code: 422)
    /// `429` Too Many Requests.
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// `500` Internal Server Error.
    public static let internalServerError = HTTPStatus(code: 500)
    /// `501` Not Implemented.
    public static let notImplemented = HTTPStatus(code: 501)
    /// `502` Bad Gateway.
    public static let badGateway = HTTPStatus(code: 502)
    /// `503` Service Unavailable: try again later (a store that cannot be reached).
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// `504` Gateway Timeout.
    public static let gatewayTimeout = HTTPStatus(code: 504)

    static func standardReason(_ code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Payload Too Large"
        case 414: "URI Too Long"
        case 416: "Range Not Satisfiable"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Unknown"
        }
    }
}
