import Foundation
import Yams

/// Writes new storage keys into a YAML configuration file — the last step of `albumkit
/// migrate`. The file is edited line by line where it can be (block-style mappings, or none),
/// so comments, order and every other key stay as they were; a layout it cannot edit safely
/// (a flow-style `storage: {…}`) is rewritten whole through Yams, which drops comments, and
/// the result says so. Written atomically (temporary files of it a killed write left are removed
/// first); a missing file (and its folder) is created.
public struct MigrationConfigFile: Sendable {
    /// The file to write.
    public let path: String

    /// The file at `path` (which need not exist yet).
    public init(path: String) { self.path = path }

    /// Sets each dotted key under `storage` (`backend`, `sqlite.path`) to its value, or removes
    /// it when the value is nil; a new file starts with `library: <library>` when that is given.
    /// Returns whether comments and layout were kept.
    @discardableResult
    public func setStorage(_ values: [(key: String, value: String?)], newFileLibrary library: String? = nil) throws -> Bool {
        let exists = FileManager.default.fileExists(atPath: path)
        let original = exists ? try String(contentsOfFile: path, encoding: .utf8) : library.map { "library: \(YAMLLines.scalar($0))\n" } ?? ""
        let changes = values.map { (["storage"] + $0.key.split(separator: ".").map(String.init), $0.value) }
        var kept = true
        var text: String
        do {
            var lines = try YAMLLines(original)
            if changes.allSatisfy({ lines.set($0.0, $0.1) }) {
                text = lines.text
            } else {
                text = try Self.rewrite(original, changes)
                kept = !original.contains("#")
            }
        } catch {
            throw AlbumKitError(.configuration, "configuration file \(path) is not valid YAML, so migrate cannot update it: \(error)")
        }
        guard Self.readsBack(text, changes) else {
            throw AlbumKitError(.configuration, "configuration file \(path): could not write the new storage keys; the file was left as it is")
        }
        if !text.hasSuffix("\n") { text += "\n" }
        let url = URL(fileURLWithPath: path)
        try AtomicFile.makeFolder(url.deletingLastPathComponent())
        LeftoverFiles.sweep(url.deletingLastPathComponent(), only: url.lastPathComponent)
        try AtomicFile.write(Data(text.utf8), to: url)
        return kept
    }

    /// The file rebuilt from its values (comments lost), the keys set or dropped.
    private static func rewrite(_ text: String, _ changes: [([String], String?)]) throws -> String {
        var tree = try Yams.load(yaml: text) as? [String: Any] ?? [:]
        for (path, value) in changes { set(&tree, path[...], value) }
        return try Yams.dump(object: tree, sortKeys: false)
    }

    private static func set(_ tree: inout [String: Any], _ path: ArraySlice<String>, _ value: String?) {
        guard let key = path.first else { return }
        if path.count == 1 {
            tree[key] = value
            return
        }
        var inner = tree[key] as? [String: Any] ?? [:]
        set(&inner, path.dropFirst(), value)
        tree[key] = inner.isEmpty ? nil : inner
    }

    /// Whether `text` parses and holds exactly the changed values.
    private static func readsBack(_ text: String, _ changes: [([String], String?)]) -> Bool {
        guard let root = (try? Yams.compose(yaml: text)) ?? nil else { return changes.allSatisfy { $0.1 == nil } }
        return changes.allSatisfy { path, value in
            var node: Node? = root
            for key in path { node = node?.mapping?[key] }
            return node?.string == value
        }
    }
}

/// A YAML document as lines, edited in place: set or remove a key at a path of block-style
/// mappings, keeping every other line (comments included) as it is.
struct YAMLLines {
    private var lines: [String]

    /// The lines of `text` (which must parse).
    init(_ text: String) throws {
        _ = try Yams.compose(yaml: text)
        lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
    }

    /// The document.
    var text: String { lines.joined(separator: "\n") + "\n" }

    /// Sets the key at `path` to `value` (nil: removes it). False when the layout around it is
    /// not plain block style (flow mappings, multi-line values): the caller rewrites instead.
    mutating func set(_ path: [String], _ value: String?) -> Bool {
        guard let root = (try? Yams.compose(yaml: text)) ?? nil else {
            if let value { lines += Self.block(path[...], value, indent: "") }
            return true
        }
        guard let mapping = root.mapping, isBlock(mapping, parentLine: 0) else { return false }
        return set(path[...], value, in: mapping, indent: "")
    }

    private mutating func set(_ path: ArraySlice<String>, _ value: String?, in mapping: Node.Mapping, indent: String) -> Bool {
        guard let key = path.first else { return false }
        guard let (keyNode, valueNode) = mapping.first(where: { $0.key.string == key }) else {
            guard let value else { return true }
            let entryIndent = mapping.first?.key.mark.map { String(repeating: " ", count: $0.column - 1) } ?? indent
            lines.insert(contentsOf: Self.block(path, value, indent: entryIndent), at: end(of: mapping))
            return true
        }
        guard let line = keyNode.mark?.line else { return false }
        if path.count == 1 {
            guard valueNode.scalar != nil || valueNode.null != nil, valueNode.mark?.line ?? line == line else { return false }
            if let value {
                let own = String(lines[line - 1].prefix { $0 == " " })
                lines[line - 1] = own + "\(key): \(Self.scalar(value))" + Self.trailingComment(lines[line - 1])
            } else {
                lines.remove(at: line - 1)
            }
            return true
        }
        if valueNode.null != nil {  // `storage:` with nothing under it
            guard let value else { return true }
            let own = String(lines[line - 1].prefix { $0 == " " })
            lines.insert(contentsOf: Self.block(path.dropFirst(), value, indent: own + "  "), at: line)
            return true
        }
        guard let inner = valueNode.mapping, isBlock(inner, parentLine: line) else { return false }
        return set(path.dropFirst(), value, in: inner, indent: indent + "  ")
    }

    /// The index of the line after `mapping`'s last entry and whatever is indented under it.
    private func end(of mapping: Node.Mapping) -> Int {
        guard let last = mapping.compactMap({ $0.key.mark?.line }).max(), let column = mapping.first?.key.mark?.column else {
            return lines.count
        }
        var index = last  // 0-based index of the line after the last key's line
        while index < lines.count {
            let line = lines[index]
            let indentation = line.prefix { $0 == " " }.count
            let continues = indentation > column - 1 || (indentation == column - 1 && line.dropFirst(indentation).hasPrefix("-"))
            if line.trimmingCharacters(in: .whitespaces).isEmpty || !continues { break }
            index += 1
        }
        return index
    }

    /// Whether `mapping` is laid out one key per line, below line `parentLine` (Yams does not
    /// report flow style reliably, so the marks decide).
    private func isBlock(_ mapping: Node.Mapping, parentLine: Int) -> Bool {
        let keyLines = mapping.compactMap { $0.key.mark?.line }
        return keyLines.count == mapping.count && Set(keyLines).count == keyLines.count && keyLines.allSatisfy { $0 > parentLine || parentLine == 0 }
    }

    /// `path` as nested block lines ending in `value`.
    private static func block(_ path: ArraySlice<String>, _ value: String, indent: String) -> [String] {
        var result: [String] = []
        var current = indent
        for (index, key) in path.enumerated() {
            result.append(current + (index == path.count - 1 ? "\(key): \(scalar(value))" : "\(key):"))
            current += "  "
        }
        return result
    }

    /// `value` as a YAML scalar: plain when that reads back as the same string, else quoted.
    static func scalar(_ value: String) -> String {
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
