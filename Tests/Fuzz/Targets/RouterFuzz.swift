// fuzz-max-len: 512
import Dispatch
import Synchronization
@testable import NapkinHTTP

/// The routes of a small app; every handler answers with its own name and the
/// parameters it received, so the fuzzer can check who answered.
let routes: [(HTTPMethod, String)] = [
    (.get, "/"), (.get, "/about"), (.delete, "/about"),
    (.get, "/users/:id"), (.put, "/users/:id"), (.get, "/users/:id/posts/:post"),
    (.get, "/files/*"), (.post, "/api/:version/*"),
]

let router: HTTPRouter = {
    var router = HTTPRouter()
    for (method, pattern) in routes {
        router.on(method, pattern) { request in
            .text(answer(method, pattern, request.parameters))
        }
    }
    return router
}()

/// A handler's answer: its route, then one `name=value` line per parameter, percent-encoded
/// so that no parameter can fake a line.
func answer(_ method: HTTPMethod, _ pattern: String, _ parameters: [String: String]) -> String {
    let lines = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\(percentEncode($0.value.utf8))" }
    return ([method.rawValue + " " + pattern] + lines).joined(separator: "\n")
}

let methods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]

/// HTTPRouter dispatch: never traps, and answers exactly as a byte-level reading of
/// the route table says (handler and parameters, 404, or 405 with `Allow`).
/// Input: one byte for the method, then the request target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    guard let first = bytes.first else { return 0 }
    let method = methods[Int(first) % methods.count]
    let target = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let request = Request(method: method, target: target)
    let response = respond(request)
    let body: String
    guard case .bytes(let payload) = response.body else { fatalError("a streamed answer") }
    body = String(decoding: payload, as: UTF8.self)

    let components = request.path.utf8.split(separator: UInt8(ascii: "/")).map { Substring($0) }
    let candidates = routes.compactMap { route in
        referenceMatch(RoutePattern(route.1).segments, components).map { (route: route, parameters: $0) }
    }
    let chosen = candidates.first { $0.route.0 == method } ?? (method == .head ? candidates.first { $0.route.0 == .get } : nil)
    if let chosen {
        require(response.status.code == 200, "\(method) \(show(target)) answered \(response.status.code)")
        let expected = method == .head ? "" : answer(chosen.route.0, chosen.route.1, chosen.parameters)
        require(body == expected, "\(method) \(show(target)) answered \(show(body)), not \(show(expected))")
    } else if candidates.isEmpty {
        require(response.status.code == 404, "\(method) \(show(target)) answered \(response.status.code), not 404")
    } else {
        require(response.status.code == 405, "\(method) \(show(target)) answered \(response.status.code), not 405")
    }
    return 0
}

/// Runs the router to completion. `Task.immediate` starts on this thread and,
/// since no handler here ever waits, finishes before returning: no thread hop per
/// input, which would cost the fuzzer most of its speed.
private func respond(_ request: Request) -> Response {
    final class Outcome: Sendable {
        let response = Mutex<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
    }
    let outcome = Outcome()
    Task.immediate {
        let response = try? await router.respond(to: request)
        outcome.response.withLock { $0 = response }
        outcome.done.signal()
    }
    outcome.done.wait()
    guard let response = outcome.response.withLock({ $0 }) else { fatalError("the router threw") }
    return response
}
