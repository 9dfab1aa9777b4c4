import NapkinHTTP

/// napkin's client script, `napkin.js`, as every ``NapkinApp`` serves it at
/// ``WebSession/scriptPath``.
///
/// The script is compiled into the NapkinWeb module (SwiftPM's
/// `.embedInCode` rule on `Sources/NapkinWeb/Resources/napkin.js`), not
/// copied next to the executable as a resource bundle: an app's binary is
/// all it takes to serve it, wherever that binary runs (`.build/release`, a
/// container that copied the binary alone), and there is no file to find or
/// to fail to find at run time. The bytes and their digest are computed
/// once, at first use.
///
/// Answers carry a strong `ETag` (a digest of the bytes) and
/// `Cache-Control: no-cache`: a browser keeps its copy but asks each time,
/// and gets `304 Not Modified` until the app runs a different napkin.js.
enum ClientScript {
    /// The script's bytes.
    static let bytes: [UInt8] = PackageResources.napkin_js

    /// A strong entity tag: 64 bits of FNV-1a over the bytes, and their count.
    static let etag = "\"napkin-\(String(FNV1a.hash(bytes), radix: 16))-\(String(bytes.count, radix: 16))\""

    /// The fields every answer carries, 304s included.
    private static let validators: HTTPHeaders = ["ETag": etag, "Cache-Control": "no-cache"]

    /// The answer to a `GET` or `HEAD` of the script: `304` when the
    /// request's `If-None-Match` names this version, else the script (a
    /// `HEAD` gets its headers and length only). Marked as a static file's,
    /// as ``/NapkinHTTP/StaticFiles``' answers are.
    static func respond(to request: Request) -> Response {
        var response = answer(to: request)
        response.isStaticFile = true
        return response
    }

    private static func answer(to request: Request) -> Response {
        if request.ifNoneMatch(etag) {
            return Response(status: .notModified, headers: validators)
        }
        var headers = validators
        headers["Content-Type"] = "text/javascript; charset=utf-8"
        guard request.method == .head else {
            return Response(status: .ok, headers: headers, body: .bytes(bytes))
        }
        headers["Content-Length"] = String(bytes.count)
        return Response(status: .ok, headers: headers)
    }
}
