import CFuzzerDriver
import Foundation

/// A ustar archive of `files` (name and bytes, in order), built in memory: how the manifest
/// and checksum targets put their input where a bundle holds it.
public func ustar(_ files: [(name: String, bytes: [UInt8])]) -> [UInt8] {
    var archive: [UInt8] = []
    for file in files {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) { for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte } }
        put(file.name, at: 0)
        put("0000644", at: 100)
        put("0000000", at: 108)
        put("0000000", at: 116)
        put(String(format: "%011o", file.bytes.count), at: 124)
        put("00000000000", at: 136)
        header[156] = UInt8(ascii: "0")
        put("ustar", at: 257)
        put("00", at: 263)
        put("        ", at: 148)  // the checksum counts its own field as spaces
        put(String(format: "%06o", header.reduce(0) { $0 + Int($1) }) + "\0 ", at: 148)
        archive += header + file.bytes + [UInt8](repeating: 0, count: (512 - file.bytes.count % 512) % 512)
    }
    return archive + [UInt8](repeating: 0, count: 1024)
}

/// Runs `operation` to its end from libFuzzer's synchronous callback, on this thread: its
/// jobs go to an executor that runs them here, one after another. Handing it to the
/// cooperative pool and waiting costs a thread switch per input and leaves allocations to be
/// freed on another thread, which sets off libFuzzer's per-input leak check every time.
public func waitFor(_ operation: @escaping @Sendable () async -> Void) {
    let executor = InlineExecutor()
    Task(executorPreference: executor, operation: operation)
    executor.runJobs()
}

/// A task executor whose jobs run on the thread that calls ``runJobs()``.
private final class InlineExecutor: TaskExecutor, @unchecked Sendable {
    // Only the fuzzing thread touches the queue: jobs are enqueued by the task it is running.
    private var jobs: [UnownedJob] = []

    func enqueue(_ job: consuming ExecutorJob) { jobs.append(UnownedJob(job)) }

    /// Runs jobs until none is left (the operation has finished: nothing else can wake it).
    func runJobs() {
        while !jobs.isEmpty { jobs.removeFirst().runSynchronously(on: asUnownedTaskExecutor()) }
    }
}

/// Hands the process to libFuzzer (its command-line options, corpus folders and all), which
/// calls `target` with each input; `target` answers 0.
public func runFuzzer(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}
