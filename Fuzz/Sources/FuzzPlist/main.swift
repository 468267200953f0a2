import AlbumKit
import Foundation
import FuzzSupport

// A property list (XML or binary) as the plist source reads it, every album then checked.
runFuzzer { start, count in
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let items = try? AlbumListSource(format: PropertyListFormat()).albumItems(in: data, input: "fuzz.plist", label: "fuzz.plist") else { return 0 }
    for case .album(let record, let label) in items { _ = try? record.validated(newID: .generate(), label: label.description) }
    return 0
}
