import AlbumKitTesting
import Foundation
import Testing

/// Every usage error is one `error:` line that says what to do next, exit status 2, and
/// blames the word that is wrong; help mentions shell completion.
@Suite struct UsageErrorTests {
    @Test(arguments: [
        (["lst"], "error: unknown command 'lst' (did you mean 'list'?); see 'albumkit --help'"),
        (["lst", "--json"], "error: unknown command 'lst' (did you mean 'list'?); see 'albumkit --help'"),
        (["--library", "lib", "lst", "--sort", "year"], "error: unknown command 'lst' (did you mean 'list'?); see 'albumkit --help'"),
        (["imprt", "a.json"], "error: unknown command 'imprt' (did you mean 'import'?); see 'albumkit --help'"),
        (["frobnicate"], "error: unknown command 'frobnicate'; see 'albumkit --help'"),
        (["covers", "statu"], "error: unknown command 'covers statu' (did you mean 'status'?); see 'albumkit covers --help'"),
        (["list", "--jsn"], "error: unknown option '--jsn' (did you mean '--json'?); see 'albumkit list --help'"),
        (["move", "1"], "error: missing expected argument '--to <pos>'; see 'albumkit move --help'"),
        (["move", "1", "--to", "x"], "error: the value 'x' is invalid for '--to <pos>'; see 'albumkit move --help'"),
        (["add", "--title", "T"], "error: missing expected argument '--artist <artist>'; see 'albumkit add --help'"),
        (["update", "1"], "error: name at least one field to change"),
        (["update", "1", "--set", "titel=x"], "error: --set: unknown field 'titel' (did you mean 'title'?"),
        (["show"], "error: name the album to show; see 'albumkit show --help'"),
        (["list", "--json", "--format", "$title"], "error: give --json or --format, not both; see 'albumkit list --help'"),
    ])
    func oneLineExitTwo(_ arguments: [String], _ message: String) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        let result = try cli.run(arguments)
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error.hasPrefix(message), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test func aNegativeYearIsAnInvalidYearNotAMissingValue() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let result = try cli.run("add", "--title", "T", "--artist", "A", "--year", "-5")
        #expect(result.status == 1)
        #expect(result.error == "error: album 'T': field 'year' must be empty or 1 to 4 digits, not '-5'\n")
        let position = try cli.run("add", "--title", "T", "--artist", "A", "--at", "-1")
        #expect(position.error.hasPrefix("error: cannot add at position -1"), "\(position.error)")
    }

    @Test func helpMentionsCompletionAndQueries() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let help = try cli.run("--help")
        #expect(help.status == 0 && help.output.contains("--generate-completion-script bash|zsh|fish"))
        let words = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.output.contains("  stats") && words.contains("'albumkit help queries'"))
        #expect(words.contains("Aliases: ls (list), rm (remove), mv (move), imp (import)."))
        let queries = try cli.run("help", "queries")
        #expect(queries.status == 0 && queries.output.contains("cover:missing") && queries.output.contains("--format '$year $artist - $title'"))
        for shell in ["bash", "zsh", "fish"] {
            let script = try cli.run("--generate-completion-script", shell)
            #expect(script.status == 0 && script.output.contains("albumkit") && script.output.contains("stats"), "\(shell): \(script.error)")
        }
    }
}
