import AlbumKit
import Foundation
import FuzzSupport

// The input as the YAML configuration file (`--config`), loaded with every key check.
// The file is rewritten for each input, in a folder of this process's own in memory
// (/dev/shm) where there is one: on disk the writes, not the parsing, set the pace. The
// environment is empty.
let memory = URL(fileURLWithPath: "/dev/shm")
let parent = FileManager.default.isWritableFile(atPath: memory.path) ? memory : FileManager.default.temporaryDirectory
let folder = parent.appendingPathComponent("albumkit-fuzz-config-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let configurationFile = folder.appendingPathComponent("albumkit.yaml")

runFuzzer { start, count in
    guard let start else { return 0 }
    do {
        try Data(bytes: start, count: count).write(to: configurationFile)
    } catch {
        fatalError("cannot write \(configurationFile.path): \(error)")
    }
    let loader = ConfigurationLoader(explicitFile: configurationFile.path, environment: [:], workingDirectory: folder.path)
    _ = try? loader.load()
    return 0
}
