/// The warnings for albums that name a cover (`covers/<sha256>.<ext>`) which neither their input
/// nor the library holds. The first ``named`` albums are named one warning each; the rest are
/// counted in one warning per input, given by ``counted``. A list whose covers were left behind
/// (a bundle's `albums.json` alone) would otherwise hold a warning per album in memory and print
/// as many lines. Import and restore both word and count them so.
struct MissingCoverWarnings: Sendable {
    /// How many albums lacking their cover are named one warning each.
    static let named = 20
    /// How many have been named.
    private var namedSoFar = 0
    /// The albums lacking their cover past those named, by input, in the order they came.
    private var unnamed: [(input: String, count: Int)] = []

    /// The warning naming the album `title` of `input`, which lacks `reference`; nil once
    /// ``named`` albums were named, the album then being counted for ``counted``.
    mutating func note(input: String, title: String, reference: String) -> String? {
        if namedSoFar < Self.named {
            namedSoFar += 1
            return "\(input): album '\(title)' names cover \(reference), which the input lacks; its cover is missing"
        }
        if unnamed.last?.input == input {
            unnamed[unnamed.count - 1].count += 1
        } else {
            unnamed.append((input, 1))
        }
        return nil
    }

    /// One warning per input for the albums counted past those named.
    var counted: [String] {
        unnamed.map { input, count in
            count == 1
                ? "\(input): 1 more album names a cover the input lacks; its cover is missing ('albumkit list cover:missing' lists them all)"
                : "\(input): \(count) more albums name covers the input lacks; their covers are missing ('albumkit list cover:missing' lists them all)"
        }
    }
}
