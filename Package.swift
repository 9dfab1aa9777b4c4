// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "napkin",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "napkin", targets: ["napkin"]),
        .library(name: "NapkinHTTP", targets: ["NapkinHTTP"]),
        .library(name: "NapkinWeb", targets: ["NapkinWeb"]),
        .library(name: "NapkinTesting", targets: ["NapkinTesting"]),
        .library(name: "NapkinRedis", targets: ["NapkinRedis"]),
        .executable(name: "RibHouse", targets: ["RibHouse"]),
        .executable(name: "NapkinBenchmarks", targets: ["NapkinBenchmarks"]),
    ],
    targets: [
        .target(name: "napkin", swiftSettings: strict),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "NapkinHTTP", dependencies: ["CMicroHTTPD"], swiftSettings: strict),
        // napkin.js is compiled into the module (see Sources/NapkinWeb/App/ClientScript.swift).
        .target(
            name: "NapkinWeb",
            dependencies: ["napkin", "NapkinHTTP"],
            resources: [.embedInCode("Resources/napkin.js")],
            swiftSettings: strict
        ),
        .target(name: "NapkinTesting", dependencies: ["napkin", "NapkinWeb", "NapkinHTTP"], swiftSettings: strict),
        // libhiredis-dev; see Sources/CHiredis/shim.h for why no pkgConfig.
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        .target(name: "NapkinRedis", dependencies: ["napkin", "NapkinWeb", "CHiredis"], swiftSettings: strict),
        .executableTarget(
            name: "RibHouse",
            dependencies: ["napkin", "NapkinWeb", "NapkinHTTP", "NapkinRedis"],
            path: "Examples/RibHouse",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "NapkinBenchmarks",
            dependencies: ["napkin", "NapkinHTTP", "NapkinWeb", "NapkinTesting", "NapkinRedis"],
            exclude: ["Floor"],
            swiftSettings: strict
        ),
        .testTarget(name: "napkinTests", dependencies: ["napkin"], swiftSettings: strict),
        .testTarget(name: "NapkinHTTPTests", dependencies: ["NapkinHTTP"], swiftSettings: strict),
        .testTarget(
            name: "NapkinWebTests",
            dependencies: ["napkin", "NapkinWeb", "NapkinHTTP", "NapkinTesting"],
            swiftSettings: strict
        ),
        .testTarget(name: "NapkinRedisTests", dependencies: ["NapkinRedis", "NapkinWeb"], swiftSettings: strict),
        .testTarget(
            name: "RibHouseTests",
            dependencies: ["RibHouse", "napkin", "NapkinWeb", "NapkinHTTP", "NapkinTesting", "NapkinRedis"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
