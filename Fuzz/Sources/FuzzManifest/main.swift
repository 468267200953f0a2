import AlbumKit
import AlbumKitBundle
import FuzzSupport

// The input as a bundle's `manifest.json`, beside an empty album list, through `verify`.
runFuzzer { start, count in
    guard let start else { return 0 }
    let archive = ustar([("manifest.json", Array(UnsafeBufferPointer(start: start, count: count))), ("albums.json", Array("[]".utf8))])
    waitFor { _ = try? await BundleVerifier.problems(inArchive: archive, name: "fuzz.tar", limits: Limits()) }
    return 0
}
