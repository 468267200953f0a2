// swift-tools-version: 6.1
// libFuzzer targets for AlbumKit's input readers (see README.md). A package of its own, so
// that only it is built with `--sanitize fuzzer --sanitize address`: its executables get
// their `main` from libFuzzer and would not link in an ordinary build of the root package.
import PackageDescription

// The root package, by path; its identity is the name of its folder, whatever the checkout is called.
let root = Context.packageDirectory + "/.."
let rootIdentity = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "AlbumKit").lowercased()

/// The fuzz targets: executable name, folder under Sources/, and the root products they use.
let targets: [(name: String, folder: String, products: [String])] = [
    ("fuzz-json-list", "FuzzJSONList", ["AlbumKit"]),
    ("fuzz-album-record", "FuzzAlbumRecord", ["AlbumKit"]),
    ("fuzz-manifest", "FuzzManifest", ["AlbumKit", "AlbumKitBundle"]),
    ("fuzz-checksums", "FuzzChecksums", ["AlbumKit", "AlbumKitBundle"]),
    ("fuzz-plist", "FuzzPlist", ["AlbumKit"]),
    ("fuzz-configuration", "FuzzConfiguration", ["AlbumKit"]),
    ("fuzz-bundle", "FuzzBundle", ["AlbumKit", "AlbumKitBundle"]),
    ("fuzz-library-file", "FuzzLibraryFile", ["AlbumKit"]),
]

let package = Package(
    name: "AlbumKitFuzz",
    dependencies: [.package(path: root)],
    targets: [.target(name: "CFuzzerDriver"), .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"])] + targets.map { target in
        .executableTarget(
            name: target.name,
            dependencies: ["FuzzSupport"] + target.products.map { .product(name: $0, package: rootIdentity) },
            path: "Sources/\(target.folder)"
        )
    }
)
