import NapkinHTTP

/// A named action a view controller accepts from its forms: it decodes the
/// posted form into its input, checks it, and calls the handler, which
/// calls the napkin's listener.
///
/// One object per action, its handler and checks inside: every view of
/// every tab declares its actions, and a view's table keeps one reference
/// for each.
@MainActor
class WebAction {
    /// Whether napkin's client asks for validation passes as the person
    /// types, and after how many milliseconds of quiet.
    let whileTyping: Int?

    fileprivate init(whileTyping: Int?) {
        self.whileTyping = whileTyping
    }

    /// An action whose form fields decode into `Input`. Fields that do not
    /// decode throw a ``FormError`` naming the field; a body that is no
    /// form at all was refused before (`415`, `400`), and anything else an
    /// input's `init(from:)` throws is a `400`. `validate` runs on the
    /// decoded input before the handler.
    static func typed<Input: Decodable>(
        _ type: Input.Type, validate: (@Sendable (Input) throws -> Void)? = nil, whileTyping: Int? = nil,
        handler: @escaping @MainActor (Input) async throws -> Void
    ) -> WebAction {
        TypedAction(validate: validate, whileTyping: whileTyping, handler: handler)
    }

    /// An action without form fields.
    static func plain(handler: @escaping @MainActor () async throws -> Void) -> WebAction {
        PlainAction(handler: handler)
    }

    /// Decodes and checks the posted form, then calls the handler.
    final func run(_ request: Request) async throws {
        do { try await perform(request) } catch { throw FormError.refusal(error) }
    }

    /// Decodes and checks a posted form without calling the handler: the
    /// validation pass. Nothing to check for an action without fields.
    final func check(_ request: Request) throws {
        do { try inspect(request) } catch { throw FormError.refusal(error) }
    }

    fileprivate func perform(_ request: Request) async throws {}

    fileprivate func inspect(_ request: Request) throws {}

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

/// An action whose fields decode into `Input`.
private final class TypedAction<Input: Decodable>: WebAction {
    let validate: (@Sendable (Input) throws -> Void)?
    let handler: @MainActor (Input) async throws -> Void

    init(validate: (@Sendable (Input) throws -> Void)?, whileTyping: Int?, handler: @escaping @MainActor (Input) async throws -> Void) {
        self.validate = validate
        self.handler = handler
        super.init(whileTyping: whileTyping)
    }

    override func perform(_ request: Request) async throws {
        try await handler(try input(of: request))
    }

    override func inspect(_ request: Request) throws {
        _ = try input(of: request)
    }

    private func input(of request: Request) throws -> Input {
        let input = try WebAction.decode(Input.self, from: request)
        try validate?(input)
        return input
    }
}

/// An action without fields.
private final class PlainAction: WebAction {
    let handler: @MainActor () async throws -> Void

    init(handler: @escaping @MainActor () async throws -> Void) {
        self.handler = handler
        super.init(whileTyping: nil)
    }

    override func perform(_ request: Request) async throws {
        try await handler()
    }
}
