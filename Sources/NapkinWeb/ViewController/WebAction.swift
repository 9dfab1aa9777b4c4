import NapkinHTTP

/// A named action a view controller accepts from its forms: it decodes the
/// posted form into its input and calls the handler, which calls the
/// napkin's listener.
struct WebAction {
    let run: @MainActor (Request) async throws -> Void

    /// Fields that do not decode into `Input` throw a ``FormError`` naming
    /// the field; a body that is no form at all was refused before (`415`,
    /// `400`), and anything else an input's `init(from:)` throws is a `400`.
    init<Input: Decodable>(_ type: Input.Type, handler: @escaping @MainActor (Input) async throws -> Void) {
        run = { request in
            let input: Input
            do {
                input = try FormDecoder().decode(Input.self, from: request)
            } catch let error as HTTPError {
                throw error
            } catch let error as FormError {
                throw error
            } catch let error as DecodingError {
                throw FormError(decoding: error, fields: (try? request.formFields()) ?? [])
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
