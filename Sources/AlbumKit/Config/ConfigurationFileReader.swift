import Foundation
import Yams

/// Reads one YAML configuration file into a ``Configuration``: the core's keys, the storage
/// aliases, `plugins.commands`, and every section a registered plugin or module declared
/// (`storage.<backend>`, `plugins.<name>`, `serve`). Anything else is an error naming the key,
/// the file, the line and the closest known key.
struct ConfigurationFileReader {
    let path: String
    let registry: AdapterRegistry

    func apply(to configuration: inout Configuration) throws(AlbumKitError) {
        let root: Node?
        do {
            root = try Yams.compose(yaml: try String(contentsOfFile: path, encoding: .utf8), .basic)
        } catch {
            throw .configuration("configuration file \(path) is not valid YAML: \(error)")
        }
        guard let root else { return }
        guard let mapping = root.mapping else {
            throw .configuration("configuration file \(path): the top level must be a mapping of keys")
        }
        let declared = registry.settingSections
        let commands = try readCommands(mapping["plugins"]?.mapping?["commands"])
        configuration.plugins.commands = commands
        if let node = mapping["plugins"]?.mapping?["commands"] { note("plugins.commands", node, in: &configuration) }
        let commandSections = Set(commands.map { "plugins.\($0.name)" })
        for (keyNode, valueNode) in mapping {
            let name = keyNode.string ?? ""
            if name == "library" {
                try applyCore(name, keyNode, valueNode, &configuration)
            } else if ConfigurationKey.sections.contains(name) || declared[name] != nil {
                guard valueNode.null == nil else { continue }
                guard let section = valueNode.mapping else { throw problem(keyNode, "'\(name)' must be a mapping of keys") }
                for (innerKey, innerValue) in section {
                    let key = name + "." + (innerKey.string ?? "")
                    if key == "plugins.commands" { continue }
                    if ConfigurationKey.named(key) != nil {
                        try applyCore(key, innerKey, innerValue, &configuration)
                    } else if declared[key] != nil || commandSections.contains(key) {
                        try applySection(key, innerKey, innerValue, declared: declared[key], &configuration)
                    } else if let declarations = declared[name] {
                        try applySetting(name, innerKey, innerValue, declarations, &configuration)
                    } else {
                        throw unknown(key, innerKey, known: knownKeys(declared, commandSections))
                    }
                }
            } else {
                throw unknown(name, keyNode, known: knownKeys(declared, commandSections))
            }
        }
    }

    /// Every key a file may set, for suggestions.
    private func knownKeys(_ declared: [String: [SettingDeclaration]], _ commandSections: Set<String>) -> [String] {
        ["library"] + ConfigurationKey.sections.sorted() + ConfigurationKey.all.map(\.name) + ["plugins.commands"] + Array(commandSections)
            + declared.flatMap { section, keys in [section] + keys.map { "\(section).\($0.key)" } }
    }

    private func applyCore(_ name: String, _ keyNode: Node, _ valueNode: Node, _ configuration: inout Configuration) throws(AlbumKitError) {
        guard let key = ConfigurationKey.named(name) else { throw unknown(name, keyNode, known: ConfigurationKey.all.map(\.name)) }
        guard valueNode.null == nil else { return }
        let value = try value(of: valueNode, key: name, keyNode)
        do {
            try key.assign(&configuration, value)
        } catch {
            throw problem(keyNode, "\(name): \(error.message)")
        }
        note(name, keyNode, in: &configuration)
    }

    /// A section of settings (`storage.postgres`, `plugins.csv`): each key checked against
    /// its declarations (or, for a process plugin, taken as written).
    private func applySection(
        _ section: String, _ keyNode: Node, _ valueNode: Node, declared: [SettingDeclaration]?, _ configuration: inout Configuration
    ) throws(AlbumKitError) {
        guard valueNode.null == nil else { return }
        guard let mapping = valueNode.mapping else { throw problem(keyNode, "'\(section)' must be a mapping of keys") }
        for (innerKey, innerValue) in mapping {
            if let declared {
                try applySetting(section, innerKey, innerValue, declared, &configuration)
            } else {
                try store(section, innerKey, innerValue, kind: nil, &configuration)
            }
        }
    }

    private func applySetting(
        _ section: String, _ keyNode: Node, _ valueNode: Node, _ declarations: [SettingDeclaration], _ configuration: inout Configuration
    ) throws(AlbumKitError) {
        let key = keyNode.string ?? ""
        guard let declaration = declarations.first(where: { $0.key == key }) else {
            throw unknown("\(section).\(key)", keyNode, known: declarations.map { "\(section).\($0.key)" })
        }
        try store(section, keyNode, valueNode, kind: declaration.kind, &configuration)
    }

    private func store(
        _ section: String, _ keyNode: Node, _ valueNode: Node, kind: SettingDeclaration.Kind?, _ configuration: inout Configuration
    ) throws(AlbumKitError) {
        guard valueNode.null == nil else { return }
        let key = keyNode.string ?? ""
        let name = "\(section).\(key)"
        let parsed = try SettingValue.parse(try value(of: valueNode, key: name, keyNode), as: kind, key: name, origin: "file \(path), line \(line(keyNode))")
        configuration.sectionValues[section, default: PluginSettings()].set(key, parsed)
        note(name, keyNode, in: &configuration)
    }

    /// `plugins.commands`: a list of `{name, kind, run}`.
    private func readCommands(_ node: Node?) throws(AlbumKitError) -> [ProcessPluginCommand] {
        guard let node, node.null == nil else { return [] }
        guard let list = node.sequence else { throw problem(node, "plugins.commands must be a list of {name, kind, run}") }
        var commands: [ProcessPluginCommand] = []
        for entry in list {
            guard let fields = entry.mapping else { throw problem(entry, "each of plugins.commands must be a mapping {name, kind, run}") }
            for (key, _) in fields where !["name", "kind", "run"].contains(key.string ?? "") {
                throw unknown("plugins.commands[].\(key.string ?? "")", key, known: ["name", "kind", "run"].map { "plugins.commands[].\($0)" })
            }
            guard let name = fields["name"]?.string, !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw problem(entry, "plugins.commands: 'name' must be letters, digits, '-' or '_'")
            }
            guard let kindText = fields["kind"]?.string, let kind = ProcessPluginCommand.Kind(rawValue: kindText) else {
                throw problem(entry, "plugins.commands '\(name)': 'kind' must be one of \(ProcessPluginCommand.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let run = fields["run"]?.sequence?.compactMap(\.string) ?? fields["run"]?.string.map { [$0] } ?? []
            guard !run.isEmpty, !run[0].isEmpty else {
                throw problem(entry, "plugins.commands '\(name)': 'run' must name the program and its arguments, as a list")
            }
            guard !commands.contains(where: { $0.name == name }) else { throw problem(entry, "plugins.commands: '\(name)' is listed twice") }
            commands.append(ProcessPluginCommand(name: name, kind: kind, run: run))
        }
        return commands
    }

    private func value(of node: Node, key: String, _ keyNode: Node) throws(AlbumKitError) -> ConfigurationValue {
        if let sequence = node.sequence {
            var items: [String] = []
            for item in sequence {
                guard let text = item.string else { throw problem(keyNode, "\(key): a list of single values is expected") }
                items.append(text)
            }
            return .list(items)
        }
        if let mapping = node.mapping {
            var pairs: [String: String] = [:]
            for (inner, value) in mapping {
                guard let name = inner.string, let text = value.string else { throw problem(keyNode, "\(key): a mapping of single values is expected") }
                pairs[name] = text
            }
            return .map(pairs)
        }
        return .scalar(node.string ?? "")
    }

    private func note(_ key: String, _ node: Node, in configuration: inout Configuration) {
        configuration.origins[key] = .file(path)
        configuration.fileLines[key] = line(node)
    }

    /// An unknown key, with the closest known key beside it (the same section first).
    private func unknown(_ name: String, _ node: Node, known: [String]) -> AlbumKitError {
        let parent = name.split(separator: ".").dropLast().joined(separator: ".")
        let depth = name.split(separator: ".").count
        let siblings = known.filter { $0.split(separator: ".").count == depth && $0.hasPrefix(parent) }
        return problem(node, "unknown key '\(name)'\(Spelling.suggestion(for: name, among: siblings.isEmpty ? known : siblings))")
    }

    private func problem(_ node: Node, _ message: String) -> AlbumKitError {
        .configuration("configuration file \(path), line \(line(node)): \(message)")
    }

    private func line(_ node: Node) -> Int { node.mark?.line ?? 0 }
}
