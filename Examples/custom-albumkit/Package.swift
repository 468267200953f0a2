// swift-tools-version: 6.1
// An outside package that builds its own `albumkit`: the installed adapters plus a source, an
// import stage and a cover fetcher of its own. `make example` in the repository builds and
// runs it.
import PackageDescription

let package = Package(
    name: "custom-albumkit",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "AlbumKit", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "my-albumkit",
            dependencies: [
                .product(name: "AlbumKit", package: "AlbumKit"),
                .product(name: "AlbumKitCLI", package: "AlbumKit"),
                .product(name: "AlbumKitInstalled", package: "AlbumKit"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
