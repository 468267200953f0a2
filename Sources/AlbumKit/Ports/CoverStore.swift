import Crypto
import Foundation

/// Content-addressed cover bytes: each cover is stored once under the SHA-256 of its bytes.
///
/// ## Implementation requirements
/// - ``put(_:fileExtension:)`` is idempotent: storing the same bytes twice keeps one copy and
///   returns the same key. A reader never sees a partly written cover.
/// - ``data(for:)`` returns exactly the stored bytes, or nil when the key is unknown;
///   its batch form, `data(for keys:)`, does the same for many keys at once, one answer per key in
///   the order asked (a key asked twice is answered twice).
/// - ``keys()`` lists every stored key once, sorted; ``keySet()`` holds the same keys.
/// - ``insert(_:)`` stores each cover of a batch that is not stored yet, and returns exactly
///   those keys, each once, in the order given; when it throws, it has taken back what it
///   stored. What it stored is durable once ``makeDurable()`` has returned.
/// - The store lives with the library it belongs to and is safe to use from many tasks.
public protocol CoverStore: Sendable {
    /// Stores `bytes` and returns their key.
    func put(_ bytes: Data, fileExtension: String) async throws -> CoverKey
    /// The bytes stored under `key`, or nil.
    func data(for key: CoverKey) async throws -> Data?
    /// The bytes stored under each of `keys`, in order, nil for an unknown key: what
    /// ``data(for:)`` returns for each, in one trip where the store can (an export reads
    /// every cover, and a database answers a batch for the cost of one query).
    func data(for keys: [CoverKey]) async throws -> [Data?]
    /// Whether `key` is stored.
    func contains(_ key: CoverKey) async throws -> Bool
    /// Which of `keys` are stored: what ``contains(_:)`` says of each, in one trip where the
    /// store can (a page of `serve` judges a hundred albums' covers with one indexed lookup).
    func storedKeys(among keys: [CoverKey]) async throws -> Set<CoverKey>
    /// Every stored key.
    func keys() async throws -> [CoverKey]
    /// Every stored key, as a set: what judging many albums' covers at once needs (`list`),
    /// without putting them in order.
    func keySet() async throws -> Set<CoverKey>
    /// Drops `key`; returns how many bytes that freed (0 when it was not stored).
    func remove(_ key: CoverKey) async throws -> Int
    /// Where a person finds the stored cover (a file path, a table row), if anywhere.
    func location(of key: CoverKey) -> String?
    /// Stores each of `covers` — bytes already checked to hash to the key beside them — that
    /// is not stored yet, in one trip where the store can (an import hands over its covers a
    /// batch at a time); returns the keys it newly stored, each once, in the order given. They
    /// are durable once ``makeDurable()`` has returned: a store may leave each batch to that one
    /// flush instead of flushing every batch. When it throws, it has taken back what it stored.
    func insert(_ covers: [(key: CoverKey, bytes: Data)]) async throws -> [CoverKey]
    /// Makes every cover ``insert(_:)`` stored so far durable (before the albums naming them
    /// are saved).
    func makeDurable() async throws
    /// The folder holding each cover as a plain file named `<sha256>.<ext>`, when the store
    /// keeps them so: an import then writes new covers straight into it (under their final
    /// names, flushed before the albums naming them are committed), instead of calling ``insert(_:)``.
    var filesFolder: URL? { get }
}

extension CoverStore {
    /// Stores that cannot name a place for a cover say nothing.
    public func location(of key: CoverKey) -> String? { nil }

    /// The keys ``keys()`` lists.
    public func keySet() async throws -> Set<CoverKey> { Set(try await keys()) }

    /// Asks ``contains(_:)`` once per key.
    public func storedKeys(among keys: [CoverKey]) async throws -> Set<CoverKey> {
        var stored = Set<CoverKey>()
        for key in Set(keys) where try await contains(key) { stored.insert(key) }
        return stored
    }

    /// Stores that are not a folder of files take new covers through ``insert(_:)``.
    public var filesFolder: URL? { nil }

    /// Asks ``data(for:)`` once per key.
    public func data(for keys: [CoverKey]) async throws -> [Data?] {
        var answers: [Data?] = []
        answers.reserveCapacity(keys.count)
        for key in keys { answers.append(try await data(for: key)) }
        return answers
    }

    /// Stores whose ``insert(_:)`` is as durable as a put have nothing left to do.
    public func makeDurable() async throws {}

    /// Asks ``contains(_:)`` and ``put(_:fileExtension:)`` cover by cover.
    public func insert(_ covers: [(key: CoverKey, bytes: Data)]) async throws -> [CoverKey] {
        var added: [CoverKey] = []
        do {
            for (key, bytes) in covers where !added.contains(key) {
                guard try await !contains(key) else { continue }
                _ = try await put(bytes, fileExtension: key.fileExtension)
                added.append(key)
            }
        } catch {
            for key in added { _ = try? await remove(key) }
            throw error
        }
        return added
    }
}

/// The name of a stored cover: the SHA-256 of its bytes in lower-case hex, and an extension
/// for the image type (`png`, `jpg`, …). Its file name is `<sha256>.<ext>`.
public struct CoverKey: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    private let digest: Digest
    public let fileExtension: String

    /// The digest in lower-case hex (or the text the key was made with, when that is not one).
    public var sha256: String { digest.text }

    /// Hashes the digest alone: keys that differ only in extension are rare (one cover stored
    /// twice under two types), and a string's hash costs more than four words' (`list` looks up
    /// every album's key).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    /// The digest's bytes, when the key names one.
    package var digestWords: SHA256Words? {
        if case .words(let words) = digest { words } else { nil }
    }

    public init(sha256: String, fileExtension: String) {
        digest = Digest(sha256)
        self.fileExtension = fileExtension
    }

    /// Parses `<64 hex>.<ext>` (or `covers/<64 hex>.<ext>`); nil for anything else.
    public init?(fileName: String) {
        // Read in place, byte by byte (every album of a library is judged by its key).
        guard let key = fileName.withUTF8Bytes(Self.parse) else { return nil }
        self = key
    }

    /// Parses a file name given as its UTF-8 bytes, as ``init(fileName:)`` does.
    init?(fileNameBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let key = Self.parse(bytes) else { return nil }
        self = key
    }

    /// The key of a digest held in its bytes.
    init(_ words: SHA256Words, fileExtension: String) {
        self.init(.words(words), fileExtension: fileExtension)
    }

    private init(_ digest: Digest, fileExtension: String) {
        self.digest = digest
        self.fileExtension = fileExtension
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> CoverKey? {
        let name = CoverReference.isInFolder(bytes) ? UnsafeBufferPointer(rebasing: bytes[CoverReference.folder.utf8.count...]) : bytes
        guard name.count > 65, name[64] == UInt8(ascii: "."),
              let words = SHA256Words(hex: UnsafeBufferPointer(rebasing: name[..<64]), ignoringCase: true) else {
            return nil
        }
        let fileExtension = UnsafeBufferPointer(rebasing: name[65...])
        guard fileExtension.contains(where: { $0 >= 0x80 }) else {
            func isLetterOrDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20) }
            guard fileExtension.allSatisfy(isLetterOrDigit) else { return nil }
            // Setting bit 0x20 lower-cases an ASCII letter and keeps a digit.
            // Written in place: decoding a lazy map checks its type at run time, for every album.
            let lowercased = String(unsafeUninitializedCapacity: fileExtension.count) { buffer in
                for (index, byte) in fileExtension.enumerated() { buffer[index] = byte | 0x20 }
                return fileExtension.count
            }
            return CoverKey(.words(words), fileExtension: lowercased)
        }
        // Beyond ASCII only the Unicode properties tell letters and digits; a combining mark
        // right after the dot is a character of its own, neither, so it starts no extension.
        let text = String(decoding: fileExtension, as: UTF8.self)
        guard text.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        return CoverKey(.words(words), fileExtension: text.lowercased())
    }

    /// The key `bytes` get when stored with `fileExtension`.
    public init(bytes: Data, fileExtension: String) {
        self.init(.words(SHA256Words(SHA256.hash(data: bytes))), fileExtension: fileExtension.lowercased())
    }

    /// `<sha256>.<ext>`.
    public var fileName: String { "\(sha256).\(fileExtension)" }
    /// The bundle-relative reference albums use: `covers/<sha256>.<ext>`.
    public var bundlePath: String { CoverReference.folder + fileName }
    public var description: String { fileName }
    /// By digest, then extension: the order of their file names (a digest has 64 characters),
    /// without building them (a sort compares each key many times, and would build a name
    /// for each side of every comparison).
    public static func < (lhs: CoverKey, rhs: CoverKey) -> Bool {
        if case .words(let left) = lhs.digest, case .words(let right) = rhs.digest {
            return left != right ? left < right : lhs.fileExtension < rhs.fileExtension
        }
        return (lhs.sha256, lhs.fileExtension) < (rhs.sha256, rhs.fileExtension)
    }

    /// Decodes `<sha256>.<ext>`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let key = CoverKey(fileName: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(name)' is not <sha256>.<ext>")
        }
        self = key
    }

    /// Encodes `<sha256>.<ext>`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fileName)
    }
}

extension CoverKey {
    /// A key's digest: its 32 bytes when it is lower-case hex, as every stored cover's is (a
    /// listing holds 100 000 keys, and each would otherwise be a string of its own), or the text
    /// the key was made with. A text digest is never lower-case hex, so equal digests are equal
    /// cases.
    fileprivate enum Digest: Hashable, Sendable {
        case words(SHA256Words)
        case text(String)

        /// `text` as words when it is 64 lower-case hex digits; as itself otherwise.
        init(_ text: String) {
            var text = text
            self = text.withUTF8 { SHA256Words(hex: $0, ignoringCase: false) }.map(Digest.words) ?? .text(text)
        }

        /// The digest as text.
        var text: String {
            switch self {
            case .words(let words): words.description
            case .text(let text): text
            }
        }
    }
}
