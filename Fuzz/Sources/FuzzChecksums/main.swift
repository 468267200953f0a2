import AlbumKit
import AlbumKitBundle
import FuzzSupport

// The input as a bundle's `checksums.sha256`, after an album list and a manifest it may
// name, through `verify`.
runFuzzer { start, count in
    guard let start else { return 0 }
    let archive = ustar([
        ("manifest.json", Array(#"{"format":"albumkit-bundle","version":1,"albumCount":0}"#.utf8)), ("albums.json", Array("[]".utf8)),
        ("checksums.sha256", Array(UnsafeBufferPointer(start: start, count: count))),
    ])
    waitFor { _ = try? await BundleVerifier.problems(inArchive: archive, name: "fuzz.tar", limits: Limits()) }
    return 0
}
