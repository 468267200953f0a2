import AlbumKit
import Foundation
import FuzzSupport

// One album object decoded as a record and checked against SPEC 1 (fields, lengths,
// control characters, the year, the cover reference).
runFuzzer { start, count in
    guard let start else { return 0 }
    guard let record = try? JSONDecoder().decode(AlbumRecord.self, from: Data(bytes: start, count: count)) else { return 0 }
    _ = try? record.validated(newID: .generate(), label: "fuzz")
    return 0
}
