import NapkinHTTP

/// A named action a view controller accepts from its forms: it decodes the
/// posted form into its input and calls the handler, which calls the
/// napkin's listener.
struct WebAction {
    let run: @MainActor (Request) async throws -> Void

    init<Input: Decodable>(_ type: Input.Type, handler: @escaping @MainActor (Input) async throws -> Void) {
        run = { request in
            let input: Input
            do {
                input = try FormDecoder().decode(Input.self, from: request.body)
            } catch let error as HTTPError {
                throw error
            } catch {
                throw HTTPError(.badRequest, "Malformed form: \(FormDecoder.shortReason(error))")
            }
            try await handler(input)
        }
    }

    init(handler: @escaping @MainActor () async throws -> Void) {
        run = { _ in try await handler() }
    }
}
