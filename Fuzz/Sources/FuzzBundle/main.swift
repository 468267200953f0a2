import AlbumKit
import AlbumKitBundle
import FuzzSupport

// The input as a whole bundle archive, of any format and compression, read by `verify`
// from memory. The limits are lowered so that a small input cannot ask for gigabytes.
runFuzzer { start, count in
    guard let start else { return 0 }
    let archive = Array(UnsafeBufferPointer(start: start, count: count))
    let limits = Limits(coverBytes: 4 << 20, listBytes: 4 << 20, archiveBytes: 64 << 20)
    waitFor { _ = try? await BundleVerifier.problems(inArchive: archive, name: "fuzz.archive", limits: limits) }
    return 0
}
