import Foundation

extension UploadStore {
    /// Serves the kept files at `prefix/<id>` on `router`; any other name
    /// under `prefix` is a 404.
    public func serve(at prefix: String, on router: inout HTTPRouter) {
        router.get(prefix + "/:id") { [self] request in
            guard let response = response(for: request.parameters["id"] ?? "") else { throw HTTPError(.notFound, "No such file.") }
            return response
        }
    }

    /// The answer that serves the file `id`, or `nil` for none: its type
    /// from its sniffed content (named by its id), never guessed again by
    /// the browser, shown inline under no file name at all, and cached for
    /// good, since an id never names another file.
    public func response(for id: String) -> Response? {
        let path = path(of: id)
        guard let type = type(of: id),
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil,
            let region = FileRegion(path: path, length: size)
        else { return nil }
        var response = Response(status: .ok, body: .file(region))
        response.headers["Content-Type"] = type.mediaType
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Disposition"] = "inline"
        response.headers["Cache-Control"] = "public, max-age=86400, immutable"
        return response
    }
}
