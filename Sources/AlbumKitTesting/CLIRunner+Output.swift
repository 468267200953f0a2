import Foundation

extension CLIRunner {
    /// The albums `albumkit list --json` prints, as JSON objects (`title`, `artist`, `id`,
    /// `cover`, …); empty when the command fails or prints something else.
    public func listedAlbums(environment extra: [String: String] = [:]) throws -> [[String: Any]] {
        let listed = try run(["list", "--json"], environment: extra)
        let json = try? JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any]
        return json?["albums"] as? [[String: Any]] ?? []
    }
}

extension CLIRunner.Result {
    /// The lines of standard error that start with `error:` (in any case): a failed command
    /// prints exactly one.
    public var errorLines: [String] {
        error.split(separator: "\n").filter { $0.lowercased().hasPrefix("error:") }.map(String.init)
    }
}
