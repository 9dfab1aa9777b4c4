import Foundation
import NapkinRedis

extension ServeOptions {
    /// The value given to the app's flag `flag`: `nil` when it was not
    /// given, the empty string for a given flag that takes no value.
    public func value(of flag: String) -> String? {
        appValues[flag]
    }

    /// The app's flag `flag` as a whole number of milliseconds above zero;
    /// `nil` when it was not given.
    public func milliseconds(_ flag: String) throws(Invalid) -> Duration? {
        try value(of: flag).map { text throws(Invalid) in .milliseconds(try Self.whole(text, flag: flag, unit: "milliseconds")) }
    }

    /// The app's flag `flag` as a whole number of seconds above zero; `nil`
    /// when it was not given.
    public func seconds(_ flag: String) throws(Invalid) -> Duration? {
        try value(of: flag).map { text throws(Invalid) in .seconds(try Self.whole(text, flag: flag, unit: "seconds")) }
    }

    /// A whole number from 1 to `limit`, or the refusal that says so.
    static func whole(_ text: String, flag: String, unit: String, upTo limit: Int = .max) throws(Invalid) -> Int {
        guard let number = Int(text), (1...limit).contains(number) else {
            throw Invalid(limit == .max ? "\(flag) takes \(unit)" : "\(flag) takes \(unit) (1 to \(limit))")
        }
        return number
    }

    static func port(_ text: String, flag: String) throws(Invalid) -> Int {
        guard let port = Int(text), (0...65535).contains(port) else { throw Invalid("\(flag): bad port \(text)") }
        return port
    }

    /// A secret long enough not to be guessed: 16 bytes or more.
    static func secret(_ text: String, flag: String) throws(Invalid) -> String {
        guard text.utf8.count >= 16 else { throw Invalid("\(flag) takes a secret of 16 bytes or more") }
        return text
    }

    static func redis(_ url: String) throws(Invalid) -> RedisConfiguration {
        do {
            return try RedisConfiguration(url: url)
        } catch {
            throw Invalid("--redis: \(error)")
        }
    }

    /// `http(s)://host[:port]`, nothing more; without a trailing slash.
    static func origin(_ text: String) throws(Invalid) -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil, url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil
        else { throw Invalid("--public-origin takes an origin such as https://example.com, not \(text)") }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}
