/// Text a plugin sent, made fit for a message: control characters shown escaped (it may reach
/// a terminal) and cut to a readable length.
enum PluginText {
    /// `text` with control characters as `\u{…}` escapes, at most `limit` characters.
    static func shown(_ text: some StringProtocol, limit: Int = 200) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if shown.count >= limit { return shown + "…" }
            if scalar.properties.generalCategory == .control {
                shown += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
