import ArgumentParser

/// How a command that works album by album ends when some albums failed (`covers fetch`,
/// `enrich`): what the others got is kept, so the library is not as it was and an `error:`
/// line, which promises that (SPEC 7), would mislead. One `warning:` line says how many
/// failed and that the rest is kept, and the exit status is 3, which no other outcome uses:
/// 0 is all done, 1 an error that changed nothing, 2 a usage error.
enum DoneInPart {
    /// The exit status.
    static let status: Int32 = 3

    /// Ends the command with the warning and exit status 3 when `failed` is more than none;
    /// `what` names one failure ("cover could not be fetched"), `kept` what stays.
    static func end(failed: Int, _ what: (singular: String, plural: String), kept: String) throws {
        guard failed > 0 else { return }
        Console.warning("\(failed) \(failed == 1 ? what.singular : what.plural); \(kept) (run the command again to retry them)")
        throw ExitCode(status)
    }
}
