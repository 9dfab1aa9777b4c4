// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

// NapkinJemalloc: an executable that depends on it uses jemalloc
// (libjemalloc-dev) in place of glibc's malloc when built for release, with
// the settings in Sources/NapkinJemalloc/jemalloc_conf.c. A page view
// allocates on a server loop and frees on the main actor's thread, and back,
// which glibc's per-thread caches serve badly (13 % of a page's CPU).
// Debug builds, and the sanitizer builds the tests run, keep the C
// library's allocator, which a sanitizer replaces with its own.
let releaseAllocator: [LinkerSetting] = [
    .linkedLibrary("jemalloc", .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "napkin",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "napkin", targets: ["napkin"]),
        .library(name: "NapkinHTTP", targets: ["NapkinHTTP"]),
        .library(name: "NapkinStorage", targets: ["NapkinStorage"]),
        .library(name: "NapkinWeb", targets: ["NapkinWeb"]),
        .library(name: "NapkinTesting", targets: ["NapkinTesting"]),
        .library(name: "NapkinRedis", targets: ["NapkinRedis"]),
        .library(name: "NapkinServe", targets: ["NapkinServe"]),
        .library(name: "NapkinJemalloc", targets: ["NapkinJemalloc"]),
        .executable(name: "RibHouse", targets: ["RibHouse"]),
        .executable(name: "NapkinBenchmarks", targets: ["NapkinBenchmarks"]),
        .plugin(name: "NapkinFeature", targets: ["NapkinFeature"]),
    ],
    targets: [
        // Code napkin's modules share and do not publish (package access, no product).
        .target(name: "NapkinSupport", swiftSettings: strict),
        .target(name: "napkin", dependencies: ["NapkinSupport"], swiftSettings: strict),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "NapkinHTTP", dependencies: ["CMicroHTTPD", "NapkinSupport"], swiftSettings: strict),
        // What outlives a process or is shared between processes (session
        // records, the message bus, leases), apart from the web server, so a
        // store's adapter (NapkinRedis) builds without it.
        .target(name: "NapkinStorage", dependencies: ["napkin", "NapkinSupport"], swiftSettings: strict),
        // napkin.js is compiled into the module (see Sources/NapkinWeb/App/ClientScript.swift).
        .target(
            name: "NapkinWeb",
            dependencies: ["napkin", "NapkinStorage", "NapkinHTTP", "NapkinSupport"],
            resources: [.embedInCode("Resources/napkin.js")],
            swiftSettings: strict
        ),
        .target(
            name: "NapkinTesting", dependencies: ["napkin", "NapkinWeb", "NapkinHTTP", "NapkinSupport"], swiftSettings: strict
        ),
        // libhiredis-dev; see Sources/CHiredis/shim.h for why no pkgConfig.
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        .target(name: "NapkinRedis", dependencies: ["napkin", "NapkinStorage", "NapkinSupport", "CHiredis"], swiftSettings: strict),
        // An app's `main`: napkin's command-line flags, Redis when asked
        // for, the metrics listener and the drain on SIGTERM.
        .target(
            name: "NapkinServe", dependencies: ["NapkinWeb", "NapkinHTTP", "NapkinStorage", "NapkinRedis"], swiftSettings: strict
        ),
        .target(name: "NapkinJemalloc", linkerSettings: releaseAllocator),
        .executableTarget(
            name: "RibHouse",
            dependencies: ["napkin", "NapkinWeb", "NapkinHTTP", "NapkinStorage", "NapkinServe", "NapkinSupport", "NapkinJemalloc"],
            path: "Examples/RibHouse",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "NapkinBenchmarks",
            dependencies: ["napkin", "NapkinHTTP", "NapkinWeb", "NapkinTesting", "NapkinRedis", "NapkinSupport", "NapkinJemalloc"],
            exclude: ["Floor"],
            swiftSettings: strict
        ),
        // swift package --allow-writing-to-package-directory napkin-feature Name
        // writes a new napkin and its test (see its --help).
        .plugin(
            name: "NapkinFeature",
            capability: .command(
                intent: .custom(
                    verb: "napkin-feature",
                    description: "Writes a new napkin (builder, interactor, view) and a passing test for it"),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes the new napkin's files into a target's folder and its test into a test target's folder")
                ])
        ),
        .testTarget(name: "NapkinSupportTests", dependencies: ["NapkinSupport"], swiftSettings: strict),
        .testTarget(name: "napkinTests", dependencies: ["napkin", "NapkinSupport"], swiftSettings: strict),
        .testTarget(name: "NapkinHTTPTests", dependencies: ["NapkinHTTP", "NapkinSupport"], swiftSettings: strict),
        .testTarget(name: "NapkinStorageTests", dependencies: ["NapkinStorage", "napkin", "NapkinSupport"], swiftSettings: strict),
        .testTarget(
            name: "NapkinWebTests",
            dependencies: ["napkin", "NapkinWeb", "NapkinHTTP", "NapkinTesting", "NapkinSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NapkinTestingTests", dependencies: ["napkin", "NapkinWeb", "NapkinHTTP", "NapkinTesting", "NapkinSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NapkinRedisTests", dependencies: ["NapkinRedis", "NapkinStorage", "NapkinSupport"], swiftSettings: strict
        ),
        .testTarget(
            name: "NapkinServeTests", dependencies: ["NapkinServe", "NapkinWeb", "NapkinHTTP", "NapkinRedis"], swiftSettings: strict
        ),
        .testTarget(
            name: "RibHouseTests",
            dependencies: ["RibHouse", "napkin", "NapkinWeb", "NapkinHTTP", "NapkinTesting", "NapkinRedis", "NapkinSupport"],
            swiftSettings: strict
        ),
        // Copies of the DocC articles' Swift examples (Sources/*/*.docc), which
        // compile here, and the tests that they match the articles and work.
        .testTarget(
            name: "DocExamplesTests", dependencies: ["napkin", "NapkinWeb", "NapkinHTTP", "NapkinStorage", "NapkinTesting", "NapkinServe"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
