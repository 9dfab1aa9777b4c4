import Foundation
import NapkinHTTP
import Testing
@testable import RibHouse

/// One guest's browser, in-process: keeps the session cookie and posts the
/// forms it finds in the last page, as a browser without JavaScript would.
@MainActor
struct GuestClient {
    let router: NapkinHTTP.Router
    private(set) var cookie: String?
    private(set) var page = ""

    init(_ ribHouse: RibHouseApp) {
        router = ribHouse.router
    }

    /// GETs `path`; keeps the body as `page`.
    @discardableResult
    mutating func get(_ path: String, json: Bool = false) async throws -> Response {
        var headers: HTTPHeaders = ["Accept": json ? "application/json" : "text/html"]
        if let cookie { headers["Cookie"] = cookie }
        let response = try await router.respond(to: Request(method: .get, target: path, headers: headers))
        if let set = response.headers["Set-Cookie"], let pair = set.split(separator: ";").first {
            cookie = String(pair)
        }
        page = Self.text(response)
        return response
    }

    /// Posts the napkin form for `action` found in `page`, with `fields`.
    mutating func submit(_ action: String, _ fields: [String: String] = [:]) async throws -> Response {
        let form = try #require(Self.form(action, in: page), "no form for \(action) on the page")
        let all = form.merging(fields) { _, new in new }
        let body = all.map { "\($0.key)=\(Self.encode($0.value))" }.joined(separator: "&")
        var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        if let cookie { headers["Cookie"] = cookie }
        return try await router.respond(to: Request(method: .post, target: "/_napkin/action", headers: headers, body: Array(body.utf8)))
    }

    static func text(_ response: Response) -> String {
        if case .bytes(let bytes) = response.body { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }

    /// The hidden fields of the form whose `_action` is `action`.
    private static func form(_ action: String, in page: String) -> [String: String]? {
        for form in page.components(separatedBy: "<form").dropFirst() {
            var fields: [String: String] = [:]
            for input in form.components(separatedBy: "<input").dropFirst() {
                guard input.contains("type=\"hidden\""),
                    let name = attribute("name", in: input), let value = attribute("value", in: input)
                else { continue }
                fields[name] = value
            }
            if fields["_action"] == action { return fields }
        }
        return nil
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: "\(name)=\"") else { return nil }
        let rest = tag[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    private static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }
}
