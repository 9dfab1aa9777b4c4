import NapkinHTTP

/// A named action a view controller accepts from its forms: it decodes the
/// posted form into its input, checks it, and calls the handler, which
/// calls the napkin's listener.
struct WebAction {
    let run: @MainActor (Request) async throws -> Void
    /// Decodes and checks a posted form without calling the handler: the
    /// validation pass. `nil` for an action without fields.
    let check: (@MainActor (Request) throws -> Void)?
    /// Whether napkin's client asks for validation passes as the person
    /// types, and after how many milliseconds of quiet.
    let whileTyping: Int?

    /// Fields that do not decode into `Input` throw a ``FormError`` naming
    /// the field; a body that is no form at all was refused before (`415`,
    /// `400`), and anything else an input's `init(from:)` throws is a `400`.
    /// `validate` runs on the decoded input before the handler.
    init<Input: Decodable>(
        _ type: Input.Type, validate: (@Sendable (Input) throws -> Void)? = nil, whileTyping: Int? = nil,
        handler: @escaping @MainActor (Input) async throws -> Void
    ) {
        let check: @MainActor (Request) throws -> Input = { request in
            let input = try Self.decode(Input.self, from: request)
            try validate?(input)
            return input
        }
        self.check = { request in
            do { _ = try check(request) } catch { throw FormError.refusal(error) }
        }
        self.whileTyping = whileTyping
        run = { request in
            do { try await handler(try check(request)) } catch { throw FormError.refusal(error) }
        }
    }

    init(handler: @escaping @MainActor () async throws -> Void) {
        run = { _ in
            do { try await handler() } catch { throw FormError.refusal(error) }
        }
        check = nil
        whileTyping = nil
    }

    private static func decode<Input: Decodable>(_ type: Input.Type, from request: Request) throws -> Input {
        do {
            return try FormDecoder().decode(Input.self, from: request)
        } catch let error as HTTPError {
            throw error
        } catch let error as FormError {
            throw error
        } catch let error as DecodingError {
            throw FormError(decoding: error, fields: (try? request.formFields()) ?? [])
        } catch {
            throw HTTPError(.badRequest, "Malformed form: \(FormDecoder.shortReason(error))")
        }
    }
}
