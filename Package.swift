// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "AlbumKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AlbumKit", targets: ["AlbumKit"]),
        .library(name: "AlbumKitTesting", targets: ["AlbumKitTesting"]),
        .executable(name: "albumkit", targets: ["albumkit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(
            name: "AlbumKit",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(name: "AlbumKitTesting", dependencies: ["AlbumKit"]),
        .executableTarget(
            name: "albumkit",
            dependencies: [
                "AlbumKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["EmbedStarterPlugin"]
        ),
        .executableTarget(name: "embed-files", path: "Sources/EmbedFiles"),
        .plugin(
            name: "EmbedStarterPlugin",
            capability: .buildTool(),
            dependencies: ["embed-files"],
            path: "Sources/EmbedStarterPlugin"
        ),
        .testTarget(name: "AlbumKitTests", dependencies: ["AlbumKit", "AlbumKitTesting"]),
        .testTarget(name: "AlbumKitCLITests", dependencies: ["AlbumKit", "albumkit"]),
    ]
)

// One set of Swift settings for every target (strict concurrency comes with Swift 6 mode).
for target in package.targets where target.type != .plugin && target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
