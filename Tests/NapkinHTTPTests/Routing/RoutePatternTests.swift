import Testing
@testable import NapkinHTTP

@Suite(.timeLimit(.minutes(1))) struct RoutePatternTests {
    @Test func literalsMatchByteForByte() {
        // Canonically equivalent to the literal, but not the same bytes (found by fuzzing).
        #expect(RoutePattern("/caf\u{e9}").match(path: "/cafe\u{301}") == nil)
        #expect(RoutePattern("/Key").match(path: "/\u{212A}ey") == nil)
        #expect(RoutePattern("/caf\u{e9}").match(path: "/caf\u{e9}") == [:])
    }

    /// Regression (found by fuzzing): `/` followed by a combining mark is one Character,
    /// so a path split into Characters could hand a parameter `../\u{301}etc`.
    @Test func parametersNeverHoldASlash() {
        #expect(RoutePattern("/files/:name").match(path: "/files/../\u{301}etc") == nil)
        #expect(RoutePattern("/files/:name").match(path: "/files/a.txt") == ["name": "a.txt"])
        #expect(RoutePattern("/files/:name").match(path: "/files//\u{301}etc/") == ["name": "\u{301}etc"])
        #expect(RoutePattern("/files/*").match(path: "/files/a/b/\u{301}c") == ["*": "a/b/\u{301}c"])
        #expect(RoutePattern("/files/*").match(path: "//files//a//b/") == ["*": "a/b"])
        #expect(RoutePattern("/files/*").match(path: "/files") == ["*": ""])
        #expect(RoutePattern("/a/b").match(path: "/a/b/c") == nil)
        #expect(RoutePattern("/a/b").match(path: "/a") == nil)
        #expect(RoutePattern("/").match(path: "/") == [:])
    }
}
