import Foundation

/// A file another tool wrote and published, kept under `Tests/Fixtures/real/<source>/` (see
/// `SOURCES.md` there), with the albums it must import as, written out by hand beside it in
/// `<name>.expected.json`.
public struct RealFixture: Sendable, CustomStringConvertible {
    /// What importing the file must give.
    public struct Expected: @unchecked Sendable {
        /// The albums, in the order the import adds them, each as `list --json` prints it (its
        /// `position` and `cover` aside); `id` null where the source gives none and import makes
        /// one.
        public let albums: [[String: Any]]
        /// The records that cannot be albums, skipped and named.
        public let skipped: Int
    }

    /// The file or folder to import.
    public let url: URL

    /// The fixture's name (its file or folder).
    public var description: String { url.lastPathComponent }

    /// The expected albums beside it.
    public func expected() throws -> Expected {
        let file = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).expected.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        return Expected(albums: json["albums"] as? [[String: Any]] ?? [], skipped: json["skipped"] as? Int ?? 0)
    }

    /// Every fixture of `source` (`discogs`, `itunes`…): each entry of its folder that has an
    /// expected file, by name. `testFile` is the calling test's `#filePath`, in `Tests/<Target>/`.
    public static func all(_ source: String, testFile: String = #filePath) -> [RealFixture] {
        let folder = URL(fileURLWithPath: testFile).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/real/\(source)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { names.contains("\($0).expected.json") }.sorted().map { RealFixture(url: folder.appendingPathComponent($0)) }
    }

    /// Imports the fixture through `albumkit` into a new library in `cli`'s sandbox and returns
    /// every way the result differs from the expected file: the exit status, the count of records
    /// skipped as not albums, the number of albums and each one's fields; empty when it imports as
    /// written.
    public func importProblems(in cli: CLIRunner) throws -> [String] {
        let expected = try expected()
        let initialized = try cli.run("init")
        guard initialized.status == 0 else { return ["init failed: \(initialized.error)"] }
        let result = try cli.run("import", url.path)
        guard result.status == 0 else { return ["import failed (status \(result.status)): \(result.error)"] }
        var problems: [String] = []
        let skipLine = ", \(expected.skipped) not albums skipped"
        if expected.skipped == 0 ? result.output.contains("not albums skipped") : !result.output.contains(skipLine) {
            problems.append("the import should skip \(expected.skipped) records: \(result.output)\(result.error)")
        }
        let listed = try cli.listedAlbums()
        if listed.count != expected.albums.count {
            problems.append("\(listed.count) albums where \(expected.albums.count) were expected: \(listed.map { $0["title"] as? String ?? "" })")
        }
        for (index, (album, wanted)) in zip(listed, expected.albums).enumerated() {
            problems += Self.differences(album, wanted).map { "album \(index + 1) '\(wanted["title"] ?? "")': \($0)" }
        }
        return problems
    }

    /// Where `listed` (an album of `albumkit list --json`) differs from `expected`, one line
    /// each, every field: each key either has but `listed`'s `position` and `cover` (an `id` of
    /// null asks only that the listed album has one; a `coverUrl` of null that it has none).
    /// Numbers agree within 0.05: a track's length as TagLib measures it may differ by a frame
    /// from what another tool says.
    public static func differences(_ listed: [String: Any], _ expected: [String: Any]) -> [String] {
        var differences: [String] = []
        let keys = Set(expected.keys).union(listed.keys.filter { $0 != "position" && $0 != "cover" })
        for key in keys.sorted() {
            let want = expected[key]
            let have = listed[key]
            if key == "id", want is NSNull || want == nil {
                if (have as? String ?? "").isEmpty { differences.append("id: none") }
                continue
            }
            if !same(have, want) { differences.append("\(key): \(text(have)) where \(text(want)) was expected") }
        }
        return differences
    }

    /// Whether two values of `JSONSerialization`'s output are the same (null and absent alike).
    private static func same(_ left: Any?, _ right: Any?) -> Bool {
        switch (left, right) {
        case (nil, nil), (nil, is NSNull), (is NSNull, nil), (is NSNull, is NSNull): return true
        case (let left as String, let right as String): return left == right
        case (is String, _), (_, is String): return false
        case (let left as [Any], let right as [Any]): return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
        case (let left as [String: Any], let right as [String: Any]):
            return Set(left.keys) == Set(right.keys) && left.allSatisfy { same($0.value, right[$0.key]) }
        default:
            guard let left = left.flatMap(number), let right = right.flatMap(number) else { return false }
            return abs(left - right) <= 0.05
        }
    }

    private static func number(_ value: Any) -> Double? {
        switch value {
        case let value as Int: Double(value)
        case let value as Double: value
        case let value as NSNumber: value.doubleValue
        default: nil
        }
    }

    /// A value as compact JSON, for messages.
    private static func text(_ value: Any?) -> String {
        guard let value, !(value is NSNull) else { return "none" }
        let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
        return data.map { String(String(decoding: $0, as: UTF8.self).dropFirst().dropLast()) } ?? "\(value)"
    }
}
