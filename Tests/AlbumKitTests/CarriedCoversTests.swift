@testable import AlbumKit
import Foundation
import Testing

/// The covers an import's inputs carried, looked up by the exact reference an album names.
@Suite struct CarriedCoversTests {
    static let hex = "0123456789abcdef" + String(repeating: "fe", count: 24)
    static let key = CoverKey(sha256: hex, fileExtension: "png")
    static let folder = URL(fileURLWithPath: "/library/covers")

    /// A cover under its key's own bundle path is found by that path, with the file it waits
    /// in; a spelling the key would also parse from is another reference, and finds nothing.
    @Test func aCoverUnderItsOwnPathIsFoundByThatPathAlone() {
        var carried = CarriedCovers()
        carried.add(Self.key, path: "covers/\(Self.hex).png", inFolder: Self.folder)
        let found = carried["covers/\(Self.hex).png"]
        #expect(found == CoverPayload(key: Self.key, file: Self.folder.appendingPathComponent("\(Self.hex).png")))
        for other in ["covers/\(Self.hex.uppercased()).png", "covers/\(Self.hex).PNG", "\(Self.hex).png", "covers/\(Self.hex).jpg"] {
            #expect(carried[other] == nil, "\(other)")
        }
        #expect(!carried.isEmpty)
    }

    /// Bytes the library held before the import wait nowhere: found, without a file.
    @Test func aCoverTheLibraryHeldIsFoundWithoutAFile() {
        var carried = CarriedCovers()
        carried.add(Self.key, path: Self.key.bundlePath, inFolder: nil)
        #expect(carried[Self.key.bundlePath] == CoverPayload(key: Self.key, file: nil))
    }

    /// An entry named otherwise than its key's bundle path (upper-case hex) is found by the
    /// name it came under, and not by the key's own path.
    @Test func aCoverUnderAnotherSpellingIsFoundByThatSpelling() {
        var carried = CarriedCovers()
        let path = "covers/\(Self.hex.uppercased()).PNG"
        carried.add(Self.key, path: path, inFolder: Self.folder)
        #expect(carried[path]?.key == Self.key)
        #expect(carried[Self.key.bundlePath] == nil)
    }

    /// A cover whose extension is not one of the image kinds this program stores under is
    /// kept by its path's text, and found by that path alone.
    @Test func aCoverOfAnotherExtensionIsFoundByItsPath() {
        var carried = CarriedCovers()
        let key = CoverKey(sha256: Self.hex, fileExtension: "jpeg")
        carried.add(key, path: key.bundlePath, inFolder: Self.folder)
        #expect(carried[key.bundlePath]?.file == Self.folder.appendingPathComponent(key.fileName))
        #expect(carried["covers/\(Self.hex).JPEG"] == nil)
    }

    /// The import asks by key whether an input carried a cover already (so that it is staged
    /// once): only a cover under its own bundle path answers, with the folder it waits in.
    @Test func aCoverCarriedUnderItsOwnPathIsFoundByKey() {
        var carried = CarriedCovers()
        #expect(carried.folder(carrying: Self.key) == nil)
        carried.add(Self.key, path: Self.key.bundlePath, inFolder: Self.folder)
        #expect(carried.folder(carrying: Self.key) == .some(Self.folder))
        let held = CoverKey(sha256: String(Self.hex.reversed()), fileExtension: "png")
        carried.add(held, path: held.bundlePath, inFolder: nil)
        #expect(carried.folder(carrying: held) == .some(nil))
        #expect(carried.folder(carrying: CoverKey(sha256: Self.hex, fileExtension: "jpg")) == nil)
        let spelled = CoverKey(sha256: String(Self.hex.dropFirst(2) + "00"), fileExtension: "png")
        carried.add(spelled, path: "covers/\(spelled.sha256.uppercased()).png", inFolder: Self.folder)
        #expect(carried.folder(carrying: spelled) == nil)
    }

    /// A URL linked to carried bytes finds them; a later input's covers win where both carry one.
    @Test func linksAndMergesFindTheLatestBytes() {
        var first = CarriedCovers()
        first.add(Self.key, path: Self.key.bundlePath, inFolder: Self.folder)
        first["https://example.com/a.png"] = first[Self.key.bundlePath]
        #expect(first["https://example.com/a.png"]?.key == Self.key)

        var later = CarriedCovers()
        let elsewhere = URL(fileURLWithPath: "/staging")
        later.add(Self.key, path: Self.key.bundlePath, inFolder: elsewhere)
        var merged = CarriedCovers()
        merged.merge(first)
        merged.merge(later)
        #expect(merged[Self.key.bundlePath]?.file == elsewhere.appendingPathComponent(Self.key.fileName))
        #expect(merged["https://example.com/a.png"]?.file == Self.folder.appendingPathComponent(Self.key.fileName))
        // Linked later under a cover's own path, those bytes win over the ones carried there.
        var relinked = CarriedCovers()
        relinked[Self.key.bundlePath] = CoverPayload(key: Self.key, file: nil)
        merged.merge(relinked)
        #expect(merged[Self.key.bundlePath] == CoverPayload(key: Self.key, file: nil))
        merged[Self.key.bundlePath] = nil
        #expect(merged[Self.key.bundlePath] == nil)
        let literal: CarriedCovers = ["https://example.com/b.png": CoverPayload(key: Self.key, file: nil)]
        #expect(literal["https://example.com/b.png"]?.key == Self.key)
        #expect(CarriedCovers().isEmpty)
    }

    /// Thousands of covers from three inputs, overlapping, merged as the import merges them:
    /// each is found under its own path with the folder of the last input that carried it, by
    /// path and by key; one a later input links elsewhere is found there; the others find nothing.
    @Test func manyCoversOfSeveralInputsFindTheirLatestFolder() {
        let folders = (0..<3).map { URL(fileURLWithPath: "/staging-\($0)") }
        let keys = (0..<5_000).map { CoverKey(bytes: Data("cover \($0)".utf8), fileExtension: $0 % 3 == 0 ? "jpg" : "png") }
        var merged = CarriedCovers()
        for (input, folder) in folders.enumerated() {
            var carried = CarriedCovers()
            for index in stride(from: input * 1_000, to: input * 1_000 + 3_000, by: 1) {
                carried.add(keys[index], path: keys[index].bundlePath, inFolder: index % 7 == 0 ? nil : folder)
            }
            if input == 2 { carried[keys[1_500].bundlePath] = CoverPayload(key: keys[0], file: nil) }
            merged.merge(carried)
        }
        for (index, key) in keys.enumerated() {
            let latest = min(index / 1_000, 2)
            let expected: URL? = index % 7 == 0 ? nil : folders[latest]
            if index == 1_500 {
                #expect(merged[key.bundlePath] == CoverPayload(key: keys[0], file: nil))
                #expect(merged.folder(carrying: key) == nil)
                continue
            }
            #expect(merged.folder(carrying: key) == .some(expected), "cover \(index)")
            #expect(merged[key.bundlePath] == CoverPayload(key: key, file: expected?.appendingPathComponent(key.fileName)), "cover \(index)")
        }
        #expect(merged[CoverKey(bytes: Data("not carried".utf8), fileExtension: "png").bundlePath] == nil)
    }
}
