import Foundation

/// Cover bytes the inputs of an import carried, by the reference albums name them with: the
/// bundle path `covers/<sha256>.<ext>` of their key, or a URL a bundle's memento had resolved
/// to carried bytes.
///
/// A cover under its own bundle path (as this program names a stored cover) is kept by that
/// path read (``CoverReference``: digest and image kind), with the number of the folder its bytes
/// wait in: a bundle of 100 000 covers held each path as a string beside its payload, 50 MB at
/// the import's peak; by key and folder URL 28 MB while the map last grew; now 12 MB.
public struct CarriedCovers: Sendable, ExpressibleByDictionaryLiteral {
    /// Covers under their key's bundle path (``CoverReference/stored(_:_:)`` only): the folder
    /// their bytes wait in, as its place in `folders` plus one (0: nowhere, the library held them
    /// before or the store takes bytes).
    private var named: [CoverReference: UInt32] = [:]
    /// The folders covers wait in (one for an import, whatever its size).
    private var folders: [URL] = []
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
            if let own = Self.ownPath(reference), let place = named[own], let key = own.storedKey {
                return CoverPayload(key: key, inFolder: folder(at: place))
            }
            return others[reference]
        }
        set {
            if let own = Self.ownPath(reference) { named[own] = nil }
            others[reference] = newValue
        }
    }

    /// Where the bytes of `key`, carried under its own bundle path, wait: nil when no input
    /// carried them so, `.some(nil)` when they wait nowhere (the library held them before, or
    /// the store took them).
    func folder(carrying key: CoverKey) -> URL?? {
        guard let words = key.digestWords, let kind = ImageKind(rawValue: key.fileExtension),
              let place = named[.stored(words, kind)] else { return nil }
        return .some(folder(at: place))
    }

    /// Notes the bytes of `key`, carried as the entry `path`, waiting in `folder` under the
    /// key's file name (nil: nowhere, the library held them before or the store took them).
    mutating func add(_ key: CoverKey, path: String, inFolder folder: URL?) {
        if let own = Self.ownPath(path), own.storedKey == key {
            named[own] = place(of: folder)
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
            if let own = Self.ownPath(reference) { named[own] = nil }
        }
        let places = [0] + later.folders.map { place(of: $0) }
        named.merge(later.named.lazy.map { ($0.key, places[Int($0.value)]) }) { _, new in new }
        others.merge(later.others) { _, new in new }
    }

    /// The folder a place in `named` stands for.
    private func folder(at place: UInt32) -> URL? { place == 0 ? nil : folders[Int(place) - 1] }

    /// The place in `named` that stands for `folder`, noting the folder when it is new.
    private mutating func place(of folder: URL?) -> UInt32 {
        guard let folder else { return 0 }
        if let index = folders.firstIndex(of: folder) { return UInt32(index + 1) }
        folders.append(folder)
        return UInt32(folders.count)
    }

    /// `reference` read, when it is a cover's bundle path as this program writes it (a stored
    /// cover's name): read in place, without building the path to compare.
    private static func ownPath(_ reference: String) -> CoverReference? {
        let read = CoverReference(reference)
        guard case .stored = read else { return nil }
        return read
    }
}
