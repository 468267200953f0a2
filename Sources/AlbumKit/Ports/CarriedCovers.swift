import Foundation

/// Cover bytes the inputs of an import carried, by the reference albums name them with: the
/// bundle path `covers/<sha256>.<ext>` of their key, or a URL a bundle's memento had resolved
/// to carried bytes.
///
/// A cover under its own bundle path (as this program names a stored cover) is kept by its key,
/// with the folder its bytes wait in: a bundle of 100 000 covers held each path as a string
/// beside its payload, 50 MB at the import's peak; by key it is 17 MB.
public struct CarriedCovers: Sendable, ExpressibleByDictionaryLiteral {
    /// Covers under their key's bundle path: the folder their bytes wait in (nil when the
    /// library stored them before, or the store takes bytes).
    private var named: [CoverKey: URL?] = [:]
    /// Covers under any other reference.
    private var others: [String: CoverPayload] = [:]

    /// No covers.
    public init() {}

    /// The covers `elements` gives, by reference.
    public init(dictionaryLiteral elements: (String, CoverPayload)...) {
        for (reference, payload) in elements { self[reference] = payload }
    }

    /// Whether no input carried a cover.
    public var isEmpty: Bool { named.isEmpty && others.isEmpty }

    /// The bytes carried for `reference`; setting links `reference` to bytes carried (or, with
    /// nil, forgets it).
    public subscript(reference: String) -> CoverPayload? {
        get {
            if let key = Self.ownKey(reference), let folder = named[key] { return CoverPayload(key: key, inFolder: folder) }
            return others[reference]
        }
        set {
            if let key = Self.ownKey(reference) { named[key] = nil }
            others[reference] = newValue
        }
    }

    /// Notes the bytes of `key`, carried as the entry `path`, waiting in `folder` under the
    /// key's file name (nil: nowhere, the library held them before or the store took them).
    mutating func add(_ key: CoverKey, path: String, inFolder folder: URL?) {
        if Self.ownKey(path) == key {
            named[key] = folder
        } else {
            others[path] = CoverPayload(key: key, inFolder: folder)
        }
    }

    /// Adds the covers of `later`, which win where both name one.
    mutating func merge(_ later: CarriedCovers) {
        if isEmpty {
            self = later
            return
        }
        for reference in later.others.keys {
            if let key = Self.ownKey(reference) { named[key] = nil }
        }
        named.merge(later.named) { _, new in new }
        others.merge(later.others) { _, new in new }
    }

    /// The key whose bundle path `reference` is, as this program writes it (a stored cover's
    /// name, ``CoverReference``): read in place, without building the path to compare.
    private static func ownKey(_ reference: String) -> CoverKey? {
        guard case .stored(let words, let kind) = CoverReference(reference) else { return nil }
        return CoverKey(words, fileExtension: kind.fileExtension)
    }
}
