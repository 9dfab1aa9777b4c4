import NapkinHTTP

/// A named action a view controller accepts from its forms: it decodes the
/// posted form into its input, checks it, and calls the handler, which
/// calls the napkin's listener.
///
/// Its handler and checks live in one object: every view of every tab
/// declares its actions, and a closure for each step cost each of them
/// an allocation.
struct WebAction {
    private let steps: any WebActionSteps
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
        steps = TypedSteps(validate: validate, handler: handler)
        self.whileTyping = whileTyping
    }

    init(handler: @escaping @MainActor () async throws -> Void) {
        steps = PlainSteps(handler: handler)
        whileTyping = nil
    }

    /// Decodes and checks the posted form, then calls the handler.
    @MainActor func run(_ request: Request) async throws {
        do { try await steps.run(request) } catch { throw FormError.refusal(error) }
    }

    /// Decodes and checks a posted form without calling the handler: the
    /// validation pass. Nothing to check for an action without fields.
    @MainActor func check(_ request: Request) throws {
        do { try steps.check(request) } catch { throw FormError.refusal(error) }
    }

    fileprivate static func decode<Input: Decodable>(_ type: Input.Type, from request: Request) throws -> Input {
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

/// What an action does with a post.
@MainActor
private protocol WebActionSteps: AnyObject {
    func run(_ request: Request) async throws
    func check(_ request: Request) throws
}

/// An action whose fields decode into `Input`.
private final class TypedSteps<Input: Decodable>: WebActionSteps {
    let validate: (@Sendable (Input) throws -> Void)?
    let handler: @MainActor (Input) async throws -> Void

    nonisolated init(validate: (@Sendable (Input) throws -> Void)?, handler: @escaping @MainActor (Input) async throws -> Void) {
        self.validate = validate
        self.handler = handler
    }

    func run(_ request: Request) async throws {
        try await handler(try input(of: request))
    }

    func check(_ request: Request) throws {
        _ = try input(of: request)
    }

    private func input(of request: Request) throws -> Input {
        let input = try WebAction.decode(Input.self, from: request)
        try validate?(input)
        return input
    }
}

/// An action without fields.
private final class PlainSteps: WebActionSteps {
    let handler: @MainActor () async throws -> Void

    nonisolated init(handler: @escaping @MainActor () async throws -> Void) {
        self.handler = handler
    }

    func run(_ request: Request) async throws {
        try await handler()
    }

    func check(_ request: Request) throws {}
}
