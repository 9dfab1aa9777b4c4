/// Reads `redis://[[user]:password@]host[:port][/db]`; see ``RedisConfiguration/init(url:)``.
enum RedisURLParser {
    struct Target: Equatable {
        var host: String
        var port: Int
        var database: Int
        var username: String? = nil
        var password: String? = nil
    }

    static func parse(_ text: String) throws -> Target {
        let scheme = "redis://"
        guard text.hasPrefix(scheme) else {
            if text.hasPrefix("rediss://") { throw RedisError.invalidURL("TLS (rediss://) is not supported") }
            throw RedisError.invalidURL("it must start with redis://")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        if rest.contains("?") || rest.contains("#") { throw RedisError.invalidURL("a query or fragment is not supported") }
        var credentials: (username: String?, password: String)?
        if let at = rest.lastIndex(of: "@") {
            credentials = try userinfo(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }

        var databaseText: Substring?
        if let slash = rest.firstIndex(of: "/") {
            databaseText = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }

        let host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw RedisError.invalidURL("an IPv6 host lacks its closing ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw RedisError.invalidURL("unexpected text after the host") }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw RedisError.invalidURL("the IPv6 host is not an address")
            }
        } else {
            if let colon = rest.firstIndex(of: ":") {
                host = rest[..<colon]
                portText = rest[rest.index(after: colon)...]
            } else {
                host = rest
            }
            guard !host.isEmpty else { throw RedisError.invalidURL("the host is missing") }
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                throw RedisError.invalidURL("the host may hold only letters, digits, dots and dashes")
            }
        }

        var port = RedisConfiguration.defaultPort
        if let portText {
            guard let number = decimal(portText), (1...65535).contains(number) else {
                throw RedisError.invalidURL("the port must be a number from 1 to 65535")
            }
            port = number
        }

        var database = 0
        if let databaseText, !databaseText.isEmpty {
            guard let number = decimal(databaseText), number <= 1_000_000 else {
                throw RedisError.invalidURL("the path must be a database number, like /0")
            }
            database = number
        }
        return Target(
            host: String(host), port: port, database: database,
            username: credentials?.username, password: credentials?.password)
    }

    /// `user:password` (an ACL user) or `:password` (the default user),
    /// each part percent-decoded; the password may not be empty.
    private static func userinfo(_ text: Substring) throws -> (username: String?, password: String) {
        guard let colon = text.firstIndex(of: ":") else {
            throw RedisError.invalidURL("credentials must be user:password or :password")
        }
        let username = try percentDecoded(text[..<colon])
        let password = try percentDecoded(text[text.index(after: colon)...])
        guard !password.isEmpty else { throw RedisError.invalidURL("the password is empty") }
        return (username.isEmpty ? nil : username, password)
    }

    /// `%XX` escapes replaced by their bytes, which must make UTF-8 text.
    private static func percentDecoded(_ text: Substring) throws -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard input.count >= 2, let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16) else {
                throw RedisError.invalidURL("the credentials hold a % that is not followed by two hex digits")
            }
            bytes.append(value)
            input = input.dropFirst(2)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw RedisError.invalidURL("the credentials are not UTF-8 text once decoded")
        }
        return decoded
    }

    /// Plain ASCII digits (no sign, no spaces), at most 7 of them.
    private static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 7, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
