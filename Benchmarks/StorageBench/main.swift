// Issue 5's "must show" numbers for one backend: time to open and list a library of N
// albums, median and p99 of one add / remove / update through `Library`, size on disk. The
// library is made as a user makes one: an import of the corpus bundle (covers included), whose
// time is the fill column.
// Usage: storage-bench BACKEND FOLDER BUNDLE ALBUMS [OPERATIONS] (postgres: ALBUMKIT_BENCH_URL).
// `make bench` (Benchmarks/run.py) runs it for every backend and puts its rows in BENCHMARKS.md.
import AlbumKit
import AlbumKitInstalled
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 5, let albumCount = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: storage-bench BACKEND FOLDER BUNDLE ALBUMS [OPERATIONS]\n".utf8))
    exit(2)
}
let backend = arguments[1]
let folder = arguments[2]
let bundle = URL(fileURLWithPath: arguments[3])
let operations = arguments.count > 5 ? Int(arguments[5]) ?? 100 : 100

let registry = AdapterRegistry.installed
var configuration = Configuration(environment: [:])
configuration.library = folder
configuration.storage.backend = backend
configuration.storage.url = ProcessInfo.processInfo.environment["ALBUMKIT_BENCH_URL"]

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func milliseconds(_ samples: [Double], _ quantile: Double) -> String {
    let sorted = samples.sorted()
    let value = sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * quantile + 0.5))]
    return String(format: "%.2f", value * 1000)
}

let clock = ContinuousClock()
let storage = try registry.makeStorage(for: configuration)
try await storage.create()
let filled = try await clock.measure {
    let importing = try await Library.open(configuration, registry: registry, hub: NotificationHub())
    let imported = try await importing.importAlbums(from: [bundle]).report.summary.added
    guard imported == albumCount else {
        FileHandle.standardError.write(Data("storage-bench: the bundle gave \(imported) albums, not \(albumCount)\n".utf8))
        exit(1)
    }
}

// Open and list with a backend that has read nothing yet (no cache).
let fresh = try registry.makeStorage(for: configuration)
var listed = 0
let openAndList = try await clock.measure {
    let library = try await Library.open(fresh, hub: NotificationHub())
    for album in try await library.albums() { listed += album.title.utf8.count > 0 ? 1 : 0 }
}

let library = try await Library.open(fresh, hub: NotificationHub())
var generator = SystemRandomNumberGenerator()
var adds: [Double] = [], updates: [Double] = [], removes: [Double] = []
for step in 0..<operations {
    let count = try await library.count()
    adds.append(seconds(try await clock.measure {
        try await library.add(AlbumRecord(title: "Added \(step)", artist: "Bench"), at: Int.random(in: 1...count, using: &generator))
    }))
    updates.append(seconds(try await clock.measure {
        try await library.update(.position(Int.random(in: 1...count, using: &generator)), AlbumPatch(title: "Updated \(step)"))
    }))
    removes.append(seconds(try await clock.measure {
        try await library.remove([.position(Int.random(in: 1...count, using: &generator))])
    }))
}

let bytes = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).reduce(0) { total, name in
    total + ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0)
}
print(
    [backend, "\(albumCount)", String(format: "%.2f", seconds(filled)), String(format: "%.3f", seconds(openAndList)),
     milliseconds(adds, 0.5), milliseconds(adds, 0.99), milliseconds(removes, 0.5), milliseconds(removes, 0.99),
     milliseconds(updates, 0.5), milliseconds(updates, 0.99), backend == "postgres" ? "-" : String(format: "%.1f", Double(bytes) / 1e6)]
        .joined(separator: " | "))
