/// The colours the command uses on a terminal, for what deserves attention: errors,
/// warnings, and the states of covers. Plain SGR sequences; ``Console`` decides whether a
/// stream gets them (a terminal, `NO_COLOR` unset, `TERM` not `dumb`).
enum TerminalStyle {
    case error, warning, good, attention, faint

    /// `text` wrapped in this style's escape sequences.
    func apply(to text: String) -> String {
        let code = switch self {
        case .error: "1;31"
        case .warning: "1;33"
        case .good: "32"
        case .attention: "33"
        case .faint: "2"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
