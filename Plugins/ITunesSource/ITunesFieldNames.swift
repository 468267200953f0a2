import SourceSupport

/// The names in the tracks' `fields` of the keys a library's tracks have, each made and kept
/// once: a packed track (``ITunesTrack/pack(albumArtist:names:into:)``) says a key by its
/// number here, and the tracks unpacked share one copy of each name. A 50 000-track library
/// then holds `itunes.sampleRate` once rather than 50 000 times (see BENCHMARKS.md, sources).
struct ITunesFieldNames {
    private var numbers: [String: Int] = [:]
    private var names: [String] = []

    /// The number of `key`'s name (`Play Count` → `itunes.playCount`), given it on first use.
    mutating func number(of key: String) -> Int {
        if let number = numbers[key] { return number }
        numbers[key] = names.count
        names.append(ITunesTrack.fieldName(key))
        return names.count - 1
    }

    /// The name numbered `number` (its text, as `pack` wrote it); nil for none.
    func name(numbered number: Substring) -> String? {
        guard let index = Int(number), names.indices.contains(index) else { return nil }
        return names[index]
    }
}
