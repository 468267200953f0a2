/// Asking before a change someone may not have meant: on a terminal the question is put;
/// elsewhere (a script, a pipe) the command refuses unless `--yes` was given, and says so.
enum Confirmation {
    /// Returns when the change may go ahead: `yes` was given, or the person at the terminal
    /// answered yes after seeing `warning`. Throws ``Refusal`` otherwise: `refusal` (which
    /// should name `--yes`) when no one could be asked, "nothing changed" when they said no.
    static func require(yes: Bool, warning: String? = nil, question: String, refusal: String) throws {
        guard !yes else { return }
        guard Console.canAsk else { throw Refusal(refusal) }
        if let warning { Console.warning(warning) }
        guard Console.confirm(question) else { throw Refusal("nothing changed") }
    }
}

/// A command that declined to go ahead: one `error:` line, exit status 1, nothing changed.
struct Refusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
