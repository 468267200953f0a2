import AlbumKit
import Foundation
import FuzzSupport

// A json library file as a command reads it by points: the input is written as the
// library's file and read through the json backend's point reads (the reader that finds the
// albums by their lines, or the whole file's reader when it refuses them), then handed over in
// runs as a listing reads it, and listed for a query on text fields (whose albums' lines are
// looked at before they are read). Any outcome but a crash, leak or hang is fine.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-library-file-\(getpid())")
try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
atexit { try? FileManager.default.removeItem(at: folder) }
/// How many inputs were run: each is written to a file of its own.
nonisolated(unsafe) var inputs = 0

runFuzzer { start, count in
    guard let start else { return 0 }
    // A new file, written without a sync and removed after: no input waits for the disk (a
    // file cut short and written again has its bytes sent to the disk on close, and the next
    // cut waits for them).
    inputs += 1
    let file = folder.appendingPathComponent("library-\(inputs).json")
    defer { unlink(file.path) }
    let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return 0 }
    let written = write(descriptor, start, count)
    close(descriptor)
    guard written == count else { return 0 }
    // A storage of its own for each input: what one remembers of a file is not carried over.
    let storage = FileStorage(file: file, format: JSONFormat(), coversFolder: folder.appendingPathComponent("covers"))
    waitFor {
        guard let reads = storage.pointReads, (try? await reads.state()) != nil, let total = try? await reads.count() else { return }
        let albums = (try? await reads.albums(in: 0..<total)) ?? []
        _ = try? await reads.albums(in: (total / 2)..<(total + 1))
        _ = try? await reads.index(of: albums.last?.id ?? AlbumID("fuzz"))
        _ = try? await reads.firstIndex(ofDuplicateKey: albums.first?.duplicateKey ?? "fuzz")
        _ = try? await storage.load(pagesOf: 2, details: [.label], lookups: false) { _ in }
    }
    // A query on text fields: the albums' lines are looked at before they are read. A listing
    // hands its runs over from a task of its own, which the inline executor of `waitFor` never
    // runs, so it is waited for on the cooperative pool.
    let listed = DispatchSemaphore(value: 0)
    Task.detached {
        if let library = try? await Library.open(storage, hub: NotificationHub()) {
            _ = try? await library.listed(matching: try! AlbumQuery(terms: ["label:a", "b"]))
        }
        listed.signal()
    }
    listed.wait()
    return 0
}
