@testable import AlbumKitCLI
import AlbumKitTesting
import CAllocator
import Foundation
import Testing

/// The allocator set-up a command that keeps its memory flat starts with.
@Suite struct AllocatorTuningTests {
    /// On glibc both thresholds and the heap count are taken (mallopt answers 1 for each); a build that lost the
    /// call (a header that does not define `__GLIBC__` before the check) answers 0. The
    /// sanitizers' allocators ignore mallopt: `make sanitizers` skips this test.
    @Test func glibcTakesTheThresholds() {
        #if canImport(Glibc)
        #expect(AllocatorTuning.apply(environment: [:]))
        #expect(albumkit_tune_allocator(AllocatorTuning.ownPagesFrom, AllocatorTuning.arenas) == 1)
        #endif
        #expect(albumkit_tune_allocator(0, 2) == 0 && albumkit_tune_allocator(.max, 2) == 0)
        #expect(albumkit_tune_allocator(AllocatorTuning.ownPagesFrom, 0) == 0)
    }

    /// A user's own glibc settings win: the command then leaves the thresholds alone.
    @Test func theUsersOwnSettingsWin() {
        for environment in [["MALLOC_MMAP_THRESHOLD_": "65536"], ["MALLOC_TRIM_THRESHOLD_": "0"], ["MALLOC_ARENA_MAX": "8"],
                            ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0"]] {
            #expect(!AllocatorTuning.apply(environment: environment), "\(environment)")
        }
        #expect(!AllocatorTuning.setsOwnSettings(["GLIBC_TUNABLES": "glibc.rtld.nns=2", "PATH": "/bin"]))
    }

    /// The `albumkit` binary sets both thresholds and the heap count for a command that keeps its memory flat
    /// (`verify`, `export`), none for one that reads the library once and exits (`list`,
    /// `--version`), and none when the user set glibc's: a `mallopt` preloaded in front of
    /// glibc's (built here by the toolchain's clang) writes down every call. `make sanitizers`
    /// skips it (a sanitizer's runtime must come first).
    @Test func theBinarySetsTheThresholdsForAFlatMemoryCommand() throws {
        #if canImport(Glibc)
        let cli = try CLIRunner()
        defer { cli.remove() }
        let source = cli.folder.appendingPathComponent("record-mallopt.c")
        try Data(Self.recordingMallopt.utf8).write(to: source)
        let preload = cli.folder.appendingPathComponent("record-mallopt.so")
        let built = try runProgram("/usr/bin/env", ["clang", "-shared", "-fPIC", "-o", preload.path, source.path, "-ldl"])
        try #require(built.status == 0, "clang: \(built.output)")
        try #require(try cli.run("init").status == 0)
        let fixed = ["-3 131072", "-1 2097152", "-8 \(AllocatorTuning.arenas)"]
        let export = cli.folder.appendingPathComponent("backup.tar.gz").path
        for (arguments, extra, expected) in [
            (["verify"], [String: String](), fixed), (["export", export], [:], fixed), (["list"], [:], []),
            (["--version"], [:], []), (["verify"], ["MALLOC_TRIM_THRESHOLD_": "131072"], []),
        ] {
            let log = cli.folder.appendingPathComponent("mallopt-\(UUID().uuidString).log")
            let environment = extra.merging(["LD_PRELOAD": preload.path, "MALLOPT_LOG": log.path]) { $1 }
            let result = try cli.run(arguments, environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.error)")
            let calls = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
            #expect(calls == expected, "\(arguments) with \(extra)")
        }
        #endif
    }

    /// A `mallopt` that appends `PARAMETER VALUE` to the file `MALLOPT_LOG` names, then calls glibc's.
    private static let recordingMallopt = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdio.h>
        #include <stdlib.h>

        int mallopt(int parameter, int value) {
            const char *log = getenv("MALLOPT_LOG");
            FILE *file = log ? fopen(log, "a") : NULL;
            if (file) {
                fprintf(file, "%d %d\\n", parameter, value);
                fclose(file);
            }
            int (*glibc)(int, int) = (int (*)(int, int))dlsym(RTLD_NEXT, "mallopt");
            return glibc ? glibc(parameter, value) : 0;
        }
        """
}
