import Foundation
import Yams

/// Writes new `storage` keys into a YAML configuration file — the last step of `albumkit
/// migrate`. The file is edited line by line where it can be (a block-style `storage`
/// section, or none), so comments, order and every other key stay as they were; a layout
/// it cannot edit safely (a flow-style `storage: {…}`) is rewritten whole through Yams,
/// which drops comments, and the result says so. Written atomically; a missing file (and
/// its folder) is created.
public struct MigrationConfigFile: Sendable {
    /// The file to write.
    public let path: String

    /// The file at `path` (which need not exist yet).
    public init(path: String) { self.path = path }

    /// Sets each key of `storage` to its value, or removes it when the value is nil; a new
    /// file starts with `library: <library>` when that is given. Returns whether comments
    /// and layout were kept.
    @discardableResult
    public func setStorage(_ values: [(key: String, value: String?)], newFileLibrary library: String? = nil) throws -> Bool {
        let exists = FileManager.default.fileExists(atPath: path)
        let original = exists ? try String(contentsOfFile: path, encoding: .utf8) : library.map { "library: \(Self.scalar($0))\n" } ?? ""
        let root: Node?
        do {
            root = try Yams.compose(yaml: original)
        } catch {
            throw AlbumKitError(.configuration, "configuration file \(path) is not valid YAML, so migrate cannot update it: \(error)")
        }
        var kept = true
        var text: String
        if let edited = Self.edit(original, root: root, values) {
            text = edited
        } else {
            text = try Self.rewrite(root, values, path: path)
            kept = !original.contains("#")
        }
        guard Self.readsBack(text, values) else {
            throw AlbumKitError(.configuration, "configuration file \(path): could not write the new storage keys; the file was left as it is")
        }
        if !text.hasSuffix("\n") { text += "\n" }
        let url = URL(fileURLWithPath: path)
        try AtomicFile.makeFolder(url.deletingLastPathComponent())
        try AtomicFile.write(Data(text.utf8), to: url)
        return kept
    }

    /// The file with the keys changed line by line, or nil when its layout needs a rewrite.
    private static func edit(_ text: String, root: Node?, _ values: [(key: String, value: String?)]) -> String? {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard let root else { return render(lines + block(values)) }
        guard let mapping = root.mapping, isBlock(mapping, below: 0) else { return nil }
        guard let (storageKey, storage) = mapping.first(where: { $0.key.string == "storage" }) else {
            return render(lines + block(values))
        }
        if storage.null != nil {  // `storage:` with nothing under it
            guard let line = storageKey.mark?.line, lines.indices.contains(line - 1) else { return nil }
            lines.insert(contentsOf: entries(values.filter { $0.value != nil }, indent: "  "), at: line)
            return render(lines)
        }
        guard let section = storage.mapping, isBlock(section, below: storageKey.mark?.line ?? .max),
            let first = section.first?.key.mark
        else { return nil }
        let indent = String(repeating: " ", count: first.column - 1)
        var lastLine = section.compactMap { $0.value.mark?.line ?? $0.key.mark?.line }.max() ?? first.line
        var removals: [Int] = []
        for (key, value) in values {
            if let (keyNode, valueNode) = section.first(where: { $0.key.string == key }) {
                guard let line = keyNode.mark?.line, valueNode.scalar != nil, valueNode.mark?.line == line else { return nil }
                if let value {
                    lines[line - 1] = indent + "\(key): \(scalar(value))" + trailingComment(lines[line - 1])
                } else {
                    removals.append(line - 1)
                }
            } else if let value {
                lines.insert(indent + "\(key): \(scalar(value))", at: lastLine)
                lastLine += 1
                removals = removals.map { $0 >= lastLine - 1 ? $0 + 1 : $0 }
            }
        }
        for index in removals.sorted(by: >) { lines.remove(at: index) }
        return render(lines)
    }

    /// Whether `mapping` is laid out one key per line, starting below line `line` (Yams
    /// does not report flow style reliably, so the marks decide).
    private static func isBlock(_ mapping: Node.Mapping, below line: Int) -> Bool {
        let lines = mapping.compactMap { $0.key.mark?.line }
        return lines.count == mapping.count && Set(lines).count == lines.count && lines.allSatisfy { $0 > line }
    }

    /// The file rebuilt from its values (comments lost), the storage keys set or dropped.
    private static func rewrite(_ root: Node?, _ values: [(key: String, value: String?)], path: String) throws -> String {
        let top = root?.mapping.map { $0.map { ($0.key, $0.value) } } ?? []
        var storage = top.first { $0.0.string == "storage" }?.1.mapping.map { $0.map { ($0.key, $0.value) } } ?? []
        storage.removeAll { key, _ in values.contains { $0.key == key.string } }
        storage += values.compactMap { key, value in value.map { (Node(key), Node($0)) } }
        let document = top.filter { $0.0.string != "storage" } + [(Node("storage"), Node(storage))]
        do {
            return try Yams.serialize(node: Node(document))
        } catch {
            throw AlbumKitError(.configuration, "configuration file \(path): could not write the new storage keys (\(error)); the file was left as it is")
        }
    }

    /// Whether `text` parses and holds exactly `values` under `storage`.
    private static func readsBack(_ text: String, _ values: [(key: String, value: String?)]) -> Bool {
        guard let storage = (try? Yams.compose(yaml: text))??.mapping?["storage"]?.mapping else { return false }
        return values.allSatisfy { storage[$0.key]?.string == $0.value }
    }

    private static func block(_ values: [(key: String, value: String?)]) -> [String] {
        ["storage:"] + entries(values.filter { $0.value != nil }, indent: "  ")
    }

    private static func entries(_ values: [(key: String, value: String?)], indent: String) -> [String] {
        values.compactMap { key, value in value.map { indent + "\(key): \(scalar($0))" } }
    }

    private static func render(_ lines: [String]) -> String { lines.joined(separator: "\n") + "\n" }

    /// `value` as a YAML scalar: plain when that reads back as the same string, else quoted.
    private static func scalar(_ value: String) -> String {
        let plain = value.range(of: #"^[A-Za-z0-9_./~][A-Za-z0-9_./:@~+%-]*$"#, options: .regularExpression) != nil
        let keyword = ["true", "false", "yes", "no", "on", "off", "null", "~"].contains(value.lowercased())
        if plain && !keyword && Double(value) == nil { return value }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }

    /// A ` # comment` ending a `key: plain-value` line, kept when the value changes.
    private static func trailingComment(_ line: String) -> String {
        guard !line.contains("\""), !line.contains("'"), let range = line.range(of: " #") else { return "" }
        let value = line[..<range.lowerBound]
        let padding = value.reversed().prefix { $0 == " " }.count
        return String(repeating: " ", count: padding) + String(line[range.lowerBound...])
    }
}
