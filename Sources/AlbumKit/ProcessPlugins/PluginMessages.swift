import Foundation

/// The JSON-lines protocol AlbumKit speaks with plugin programs: one JSON object per line,
/// each with a `type`. `docs/plugin-protocol.md` specifies every message.
public enum PluginProtocol {
    /// The newest protocol version this AlbumKit speaks: version 2 albums carry every field
    /// of SPEC 1, version 1 albums the core six.
    public static let version = 2
    /// The versions a plugin's `hello` may name; AlbumKit then speaks the one it named.
    public static let versions = 1...version
}

/// What a plugin program says about itself in its first line.
public struct PluginHello: Sendable, Hashable {
    /// The protocol version it speaks.
    public let protocolVersion: Int
    /// `source`, `stage` or `fetcher`.
    public let kind: String
    /// The program's own name for itself.
    public let name: String
    /// The program's version.
    public let version: String
    /// The settings it reads under `plugins.<name>`, when it declares them; nil accepts any.
    public let settings: [SettingDeclaration]?
}

/// Cover bytes a plugin hands over: a file to read, or the bytes in base64.
struct PluginCover: Sendable, Decodable {
    let file: String?
    let data: String?
}

/// One line a plugin sent, decoded by its `type`.
enum PluginMessage: Sendable {
    case hello(PluginHello)
    /// A source's album, with the label it names the album by and the cover it carries.
    case album(AlbumRecord, label: String?, cover: PluginCover?)
    case warning(String)
    /// A source's "this input is bad", naming the row or entry.
    case error(String)
    /// A source's end of one input.
    case end
    /// A stage's "pass it on", with the changed album or nil for unchanged.
    case pass(AlbumRecord?)
    case drop(reason: String)
    case fail(reason: String)
    /// A cover fetcher's bytes.
    case cover(PluginCover)
    /// A cover fetcher's "not mine".
    case decline

    /// The `type` a message of this case has, as messages name it.
    var type: String {
        switch self {
        case .hello: "hello"
        case .album: "album"
        case .warning: "warning"
        case .error: "error"
        case .end: "end"
        case .pass: "pass"
        case .drop: "drop"
        case .fail: "fail"
        case .cover: "cover"
        case .decline: "decline"
        }
    }
}

extension PluginMessage: Decodable {
    private enum Keys: String, CodingKey {
        case type, `protocol`, kind, name, version, settings, album, label, cover, message, reason, file, data
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        let type = try fields.decode(String.self, forKey: .type)
        switch type {
        case "hello":
            self = .hello(PluginHello(
                protocolVersion: try fields.decode(Int.self, forKey: .protocol),
                kind: try fields.decode(String.self, forKey: .kind), name: try fields.decode(String.self, forKey: .name),
                version: try fields.decode(String.self, forKey: .version),
                settings: try fields.decodeIfPresent([DeclaredSetting].self, forKey: .settings)?.map(\.declaration)))
        case "album":
            self = .album(
                try fields.decode(AlbumRecord.self, forKey: .album), label: try fields.decodeIfPresent(String.self, forKey: .label),
                cover: try fields.decodeIfPresent(PluginCover.self, forKey: .cover))
        case "warning": self = .warning(try fields.decode(String.self, forKey: .message))
        case "error": self = .error(try fields.decode(String.self, forKey: .message))
        case "end": self = .end
        case "pass": self = .pass(try fields.decodeIfPresent(AlbumRecord.self, forKey: .album))
        case "drop": self = .drop(reason: try fields.decode(String.self, forKey: .reason))
        case "fail": self = .fail(reason: try fields.decode(String.self, forKey: .reason))
        case "cover": self = .cover(PluginCover(file: try fields.decodeIfPresent(String.self, forKey: .file), data: try fields.decodeIfPresent(String.self, forKey: .data)))
        case "decline": self = .decline
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: fields, debugDescription: "unknown message type '\(type)'")
        }
    }
}

/// A setting as a plugin declares it in its `hello`: `{"key", "type", "default", "summary"}`.
private struct DeclaredSetting: Decodable {
    let declaration: SettingDeclaration

    private enum Keys: String, CodingKey { case key, type, `default`, summary, minimum, choices }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        let key = try fields.decode(String.self, forKey: .key)
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw DecodingError.dataCorruptedError(forKey: .key, in: fields, debugDescription: "a setting's key must be letters, digits, '-' or '_'")
        }
        let kind: SettingDeclaration.Kind
        switch try fields.decode(String.self, forKey: .type) {
        case "text": kind = .text
        case "integer": kind = .integer(minimum: try fields.decodeIfPresent(Int.self, forKey: .minimum) ?? 0)
        case "number": kind = .number
        case "flag": kind = .flag
        case "list": kind = .list
        case "map": kind = .map
        case "choice": kind = .choice(try fields.decode([String].self, forKey: .choices))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: fields, debugDescription: "unknown setting type '\(other)' (text, integer, number, flag, list, map, choice)")
        }
        let defaultValue = try fields.decodeIfPresent(SettingJSON.self, forKey: .default)?.value
        declaration = SettingDeclaration(key, kind, default: defaultValue, try fields.decodeIfPresent(String.self, forKey: .summary) ?? "")
    }
}

/// A setting's value in JSON: a string (numbers and booleans as their text), a list of
/// strings, or an object of strings — what the host sends and what a default may be.
struct SettingJSON: Codable {
    let value: PluginSettings.Value

    init(_ value: PluginSettings.Value) { self.value = value }

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let text = try? single.decode(String.self) {
            value = .text(text)
        } else if let flag = try? single.decode(Bool.self) {
            value = .text(String(flag))
        } else if let number = try? single.decode(Int.self) {
            value = .text(String(number))
        } else if let number = try? single.decode(Double.self) {
            value = .text(String(number))
        } else if let items = try? single.decode([String].self) {
            value = .list(items)
        } else {
            value = .map(try single.decode([String: String].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch value {
        case .text(let text): try single.encode(text)
        case .list(let items): try single.encode(items)
        case .map(let pairs): try single.encode(pairs)
        }
    }
}

/// What AlbumKit sends a plugin.
enum HostMessage: Encodable {
    /// The answer to the plugin's `hello`: the protocol, the name it is configured under, its
    /// settings (`plugins.<name>.*`) and the limits it is held to.
    case configure(name: String, kind: String, settings: PluginSettings, limits: Limits, protocolVersion: Int)
    /// A source's "read this input".
    case read(path: String, folder: Bool)
    /// A stage's "decide about this album".
    case album(AlbumRecord, label: String, input: String, protocolVersion: Int)
    /// A fetcher's "bytes for this reference, please".
    case fetch(reference: String, maxBytes: Int)

    private enum Keys: String, CodingKey {
        case type, `protocol`, name, kind, settings, limits, path, folder, album, label, input, reference, maxBytes
    }

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Keys.self)
        switch self {
        case .configure(let name, let kind, let settings, let limits, let protocolVersion):
            try fields.encode("configure", forKey: .type)
            try fields.encode(protocolVersion, forKey: .protocol)
            try fields.encode(name, forKey: .name)
            try fields.encode(kind, forKey: .kind)
            try fields.encode(settings.values.mapValues(SettingJSON.init), forKey: .settings)
            try fields.encode(["listBytes": limits.listBytes, "coverBytes": limits.coverBytes], forKey: .limits)
        case .read(let path, let folder):
            try fields.encode("read", forKey: .type)
            try fields.encode(path, forKey: .path)
            try fields.encode(folder, forKey: .folder)
        case .album(let record, let label, let input, let protocolVersion):
            try fields.encode("album", forKey: .type)
            try fields.encode(AlbumRecordJSON(record, everyField: protocolVersion >= 2), forKey: .album)
            try fields.encode(label, forKey: .label)
            try fields.encode(input, forKey: .input)
        case .fetch(let reference, let maxBytes):
            try fields.encode("fetch", forKey: .type)
            try fields.encode(reference, forKey: .reference)
            try fields.encode(maxBytes, forKey: .maxBytes)
        }
    }

    /// The message as one line, newline included.
    func line() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data([0x0A])
    }
}
