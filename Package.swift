// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "AlbumKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AlbumKit", targets: ["AlbumKit"]),
        .library(name: "AlbumKitTesting", targets: ["AlbumKitTesting"]),
        .library(name: "AlbumKitBundle", targets: ["AlbumKitBundle"]),
        .library(name: "AlbumKitCLI", targets: ["AlbumKitCLI"]),
        .library(name: "AlbumKitInstalled", targets: ["AlbumKitInstalled"]),
        .library(name: "AlbumKitRowStore", targets: ["AlbumKitRowStore"]),
        .library(name: "SQLiteStorage", targets: ["SQLiteStorage"]),
        .library(name: "PostgresStorage", targets: ["PostgresStorage"]),
        .library(name: "HTTPCovers", targets: ["HTTPCovers"]),
        .library(name: "Lookups", targets: ["Lookups"]),
        .library(name: "AlbumKitServer", targets: ["AlbumKitServer"]),
        .library(name: "SourceSupport", targets: ["SourceSupport"]),
        .library(name: "ITunesSource", targets: ["ITunesSource"]),
        .library(name: "DiscogsSource", targets: ["DiscogsSource"]),
        .library(name: "RYMSource", targets: ["RYMSource"]),
        .library(name: "BeetsSource", targets: ["BeetsSource"]),
        .library(name: "KodiSource", targets: ["KodiSource"]),
        .executable(name: "albumkit", targets: ["albumkit"]),
        .library(name: "AudioFiles", targets: ["AudioFiles"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "AlbumKit",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
                "CFileSync",
            ],
            plugins: ["EmbedStarterPlugin"]
        ),
        // syncfs and sync_file_range, which Swift's Glibc module does not show.
        .target(name: "CFileSync"),
        // mallopt, which Swift's Glibc module does not show.
        .target(name: "CAllocator"),
        .target(name: "AlbumKitTesting", dependencies: ["AlbumKit"]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .target(
            name: "AlbumKitBundle",
            dependencies: ["AlbumKit", "CArchive", "CFileSync", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "AlbumKitCLI",
            dependencies: [
                "AlbumKit",
                "AlbumKitServer",
                "CAllocator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The one registry of installed adapters: the binary, the tests and the benchmarks use it.
        .target(
            name: "AlbumKitInstalled",
            dependencies: [
                "AlbumKit", "AlbumKitBundle", "SQLiteStorage", "PostgresStorage", "HTTPCovers", "Lookups",
                "ITunesSource", "DiscogsSource", "RYMSource", "BeetsSource", "KodiSource", "AudioFiles",
            ]
        ),
        .executableTarget(name: "albumkit", dependencies: ["AlbumKitCLI", "AlbumKitInstalled"]),
        .executableTarget(name: "embed-files", path: "Sources/EmbedFiles"),
        .executableTarget(
            name: "albumkit-bench",
            dependencies: ["AlbumKit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/AlbumKitBench"
        ),
        .plugin(
            name: "EmbedStarterPlugin",
            capability: .buildTool(),
            dependencies: ["embed-files"],
            path: "Sources/EmbedStarterPlugin"
        ),
        // The row store both database backends share; each plugin is a small driver over it.
        .target(name: "AlbumKitRowStore", dependencies: ["AlbumKit"]),
        .target(
            name: "SQLiteStorage",
            dependencies: ["AlbumKit", "AlbumKitRowStore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Plugins/SQLiteStorage"
        ),
        .target(
            name: "PostgresStorage",
            dependencies: ["AlbumKit", "AlbumKitRowStore", .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Plugins/PostgresStorage"
        ),
        .target(
            name: "HTTPCovers",
            dependencies: [
                "AlbumKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Plugins/HTTPCovers"
        ),
        // A real HTTP server on loopback that tests play a service with (covers, lookups).
        .target(
            name: "LoopbackHTTPServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/LoopbackHTTPServer"
        ),
        .testTarget(
            name: "HTTPCoversTests",
            dependencies: [
                "HTTPCovers", "AlbumKit", "AlbumKitTesting", "albumkit", "LoopbackHTTPServer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The services of SPEC 11 (MusicBrainz, Cover Art Archive, iTunes Search, Discogs) over
        // HTTPCovers' guarded client.
        .target(name: "Lookups", dependencies: ["AlbumKit", "HTTPCovers"], path: "Plugins/Lookups"),
        .testTarget(
            name: "LookupsTests",
            dependencies: [
                "Lookups", "HTTPCovers", "AlbumKit", "AlbumKitTesting", "LoopbackHTTPServer", "albumkit",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "SQLiteStorageTests", dependencies: ["SQLiteStorage", "AlbumKit", "AlbumKitBundle", "AlbumKitTesting", "albumkit"]),
        .executableTarget(
            name: "storage-bench",
            dependencies: ["AlbumKit", "AlbumKitInstalled"],
            path: "Benchmarks/StorageBench"
        ),
        .testTarget(
            name: "PostgresStorageTests",
            dependencies: ["PostgresStorage", "SQLiteStorage", "AlbumKitBundle", "AlbumKit", "AlbumKitTesting", "AlbumKitInstalled", "albumkit"]
        ),
        .testTarget(name: "AlbumKitBundleTests", dependencies: ["AlbumKitBundle", "AlbumKit", "AlbumKitTesting", "AlbumKitInstalled"]),
        .testTarget(name: "AlbumKitTests", dependencies: ["AlbumKit", "AlbumKitTesting", "CFileSync"]),
        // serve: the page (Page/, embedded at build time), the JSON API and the event stream.
        .target(
            name: "AlbumKitServer",
            dependencies: [
                "AlbumKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["Page"],
            plugins: ["EmbedStarterPlugin"]
        ),
        .testTarget(
            name: "AlbumKitServerTests",
            dependencies: [
                "AlbumKitServer", "AlbumKit", "AlbumKitTesting", "SQLiteStorage", "PostgresStorage", "albumkit",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(name: "AlbumKitCLITests", dependencies: ["AlbumKit", "AlbumKitTesting", "AlbumKitCLI", "CAllocator", "albumkit"]),
        // A program's view: only AlbumKit and AlbumKitBundle, no CLI, every workflow.
        .testTarget(name: "AlbumKitWorkflowTests", dependencies: ["AlbumKit", "AlbumKitBundle", "SQLiteStorage"]),
        // Sources people already have (SPEC 9): shared readers, then one plugin per format.
        .target(name: "SourceSupport", dependencies: ["AlbumKit"], path: "Plugins/SourceSupport"),
        .target(name: "ITunesSource", dependencies: ["AlbumKit", "SourceSupport"], path: "Plugins/ITunesSource"),
        .target(name: "DiscogsSource", dependencies: ["AlbumKit", "SourceSupport"], path: "Plugins/DiscogsSource"),
        .target(name: "RYMSource", dependencies: ["AlbumKit", "SourceSupport"], path: "Plugins/RYMSource"),
        .target(
            name: "BeetsSource",
            dependencies: [
                "AlbumKit", "SourceSupport", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Yams", package: "Yams"),
            ],
            path: "Plugins/BeetsSource"
        ),
        .target(name: "KodiSource", dependencies: ["AlbumKit", "SourceSupport"], path: "Plugins/KodiSource"),
        .testTarget(name: "SourceSupportTests", dependencies: ["SourceSupport", "AlbumKit", "AlbumKitTesting"]),
        .testTarget(name: "ITunesSourceTests", dependencies: ["ITunesSource", "AlbumKit", "AlbumKitTesting", "albumkit"]),
        .testTarget(name: "CSVExportSourcesTests", dependencies: ["DiscogsSource", "RYMSource", "AlbumKit", "AlbumKitTesting", "albumkit"]),
        .testTarget(name: "BeetsSourceTests", dependencies: ["BeetsSource", "AlbumKit", "AlbumKitTesting", "albumkit"]),
        .testTarget(name: "KodiSourceTests", dependencies: ["KodiSource", "AlbumKit", "AlbumKitTesting", "albumkit"]),
        // TagLib (C++) reaches Swift only through CTagShim's C API.
        .systemLibrary(name: "CTagLib", pkgConfig: "taglib", providers: [.apt(["libtag1-dev"])]),
        .target(name: "CTagShim", dependencies: ["CTagLib"]),
        .target(
            name: "AudioFiles",
            dependencies: ["AlbumKit", "AlbumKitBundle", "SourceSupport", "CTagShim"],
            path: "Plugins/AudioFiles"
        ),
        .testTarget(
            name: "AudioFilesTests",
            dependencies: ["AudioFiles", "AlbumKit", "AlbumKitTesting", "AlbumKitInstalled", "albumkit"],
            exclude: ["make-audio.py"]
        ),
        .testTarget(name: "AlbumKitRowStoreTests", dependencies: ["AlbumKitRowStore", "AlbumKit"]),
    ],
    cxxLanguageStandard: .cxx17
)

// One set of Swift settings for every target (strict concurrency comes with Swift 6 mode).
for target in package.targets where target.type != .plugin && target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
