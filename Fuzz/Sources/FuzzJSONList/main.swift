import AlbumKit
import Foundation
import FuzzSupport

// A JSON album list as `import` reads it: decoded element by element, then every album
// checked against SPEC 1. Any outcome but a crash, leak or hang is fine.
runFuzzer { start, count in
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let items = try? AlbumListSource(format: JSONFormat()).albumItems(in: data, input: "fuzz.json", label: "fuzz.json") else { return 0 }
    for case .album(let record, let label) in items { _ = try? record.validated(newID: .generate(), label: label.description) }
    return 0
}
