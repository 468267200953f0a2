import ArgumentParser

/// `albumkit-bench`: the measurements `make bench` needs from inside a process, through the
/// public AlbumKit API only (the per-backend ones are `storage-bench`'s). Each subcommand prints one JSON object on standard output;
/// `Benchmarks/run.py` runs them and writes BENCHMARKS.md.
@main
struct AlbumKitBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albumkit-bench",
        abstract: "AlbumKit micro-benchmarks (JSON on standard output).",
        subcommands: [HubBenchmark.self])
}
