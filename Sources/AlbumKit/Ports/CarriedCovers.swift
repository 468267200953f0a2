import Foundation

/// Cover bytes the inputs of an import carried, by the reference albums name them with: the
/// bundle path `covers/<sha256>.<ext>` of their key, or a URL a bundle's memento had resolved
/// to carried bytes.
///
/// A cover under its own bundle path (as this program names a stored cover) is kept by its
/// digest and image kind, with the number of the folder its bytes wait in, in an array sorted
/// once its input is read (``OwnPaths``): a large bundle's covers take a fraction of what
/// their paths as strings, or their keys and folder URLs in a dictionary, took (BENCHMARKS.md).
public struct CarriedCovers: Sendable, ExpressibleByDictionaryLiteral {
    /// Covers under their key's bundle path (``CoverReference/stored(_:_:)`` only).
    private var named = OwnPaths()
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
            if case .stored(let words, let kind) = Self.ownPath(reference), let place = named.place(of: words, kind) {
                return CoverPayload(key: CoverKey(words, fileExtension: kind.fileExtension), inFolder: folder(at: place))
            }
            return others[reference]
        }
        set {
            if case .stored(let words, let kind) = Self.ownPath(reference) { named.remove(words, kind) }
            others[reference] = newValue
        }
    }

    /// Where the bytes of `key`, carried under its own bundle path, wait: nil when no input
    /// carried them so, `.some(nil)` when they wait nowhere (the library held them before, or
    /// the store took them).
    func folder(carrying key: CoverKey) -> URL?? {
        guard let words = key.digestWords, let kind = ImageKind(rawValue: key.fileExtension),
              let place = named.place(of: words, kind) else { return nil }
        return .some(folder(at: place))
    }

    /// Notes the bytes of `key`, carried as the entry `path`, waiting in `folder` under the
    /// key's file name (nil: nowhere, the library held them before or the store took them).
    /// Cheap: the entry joins the array unsorted until ``merge(_:)`` takes the input's covers.
    mutating func add(_ key: CoverKey, path: String, inFolder folder: URL?) {
        if case .stored(let words, let kind) = Self.ownPath(path), CoverKey(words, fileExtension: kind.fileExtension) == key {
            named.append(words, kind, place: place(of: folder))
        } else {
            others[path] = CoverPayload(key: key, inFolder: folder)
        }
    }

    /// Adds the covers of `later`, which win where both name one.
    mutating func merge(_ later: CarriedCovers) {
        var later = later
        later.named.sort()
        if isEmpty {
            self = later
            return
        }
        for reference in later.others.keys {
            if case .stored(let words, let kind) = Self.ownPath(reference) { named.remove(words, kind) }
        }
        let places = [0] + later.folders.map { place(of: $0) }
        later.named.renumber { places[Int($0)] }
        named.merge(later.named)
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

/// Covers carried under their own bundle path: digest, image kind and the place of the folder
/// their bytes wait in (0: nowhere), sorted by digest and kind up to `sortedCount`, in the
/// order they were noted after it.
private struct OwnPaths: Sendable {
    struct Entry: Sendable, Comparable {
        let words: SHA256Words
        let kind: UInt8
        var place: UInt32

        /// Orders by digest, then kind.
        static func < (left: Entry, right: Entry) -> Bool { (left.words, left.kind) < (right.words, right.kind) }
        /// The same cover, wherever it waits.
        static func == (left: Entry, right: Entry) -> Bool { left.words == right.words && left.kind == right.kind }
    }

    private var entries: [Entry] = []
    private var sortedCount = 0

    var isEmpty: Bool { entries.isEmpty }

    mutating func append(_ words: SHA256Words, _ kind: ImageKind, place: UInt32) {
        entries.append(Entry(words: words, kind: Self.index(of: kind), place: place))
    }

    /// The place noted for the cover: found by halving in the sorted part, else looked for in
    /// the unsorted rest (the covers of an input still being read), the latest first.
    func place(of words: SHA256Words, _ kind: ImageKind) -> UInt32? {
        let wanted = Entry(words: words, kind: Self.index(of: kind), place: 0)
        if let index = sortedIndex(of: wanted) { return entries[index].place }
        return entries[sortedCount...].last { $0 == wanted }?.place
    }

    mutating func remove(_ words: SHA256Words, _ kind: ImageKind) {
        sort()
        if let index = sortedIndex(of: Entry(words: words, kind: Self.index(of: kind), place: 0)) {
            entries.remove(at: index)
            sortedCount -= 1
        }
    }

    /// Sorts the entries noted since the last sort into the sorted part, in place when nothing
    /// was sorted before (the covers of one input, read once). One input never carries a cover's
    /// own path twice (an archive's second entry of a name is refused); should it, the entry
    /// whose bytes wait in a folder stays.
    mutating func sort() {
        guard sortedCount < entries.count else { return }
        guard sortedCount > 0 else {
            entries.sortWithoutScratch()
            var kept = 0
            for index in entries.indices {
                if kept > 0, entries[kept - 1] == entries[index] {
                    entries[kept - 1].place = max(entries[kept - 1].place, entries[index].place)
                } else {
                    entries[kept] = entries[index]
                    kept += 1
                }
            }
            entries.removeSubrange(kept...)
            sortedCount = kept
            return
        }
        var later = OwnPaths()
        later.entries = Array(entries[sortedCount...])
        entries.removeSubrange(sortedCount...)
        later.sort()
        merge(later)
    }

    /// Adds the entries of `later`, sorted; of two for one cover, `later`'s stays.
    mutating func merge(_ later: OwnPaths) {
        sort()
        entries = entries.mergingSorted(later.entries)
        sortedCount = entries.count
    }

    /// Gives each entry the place `renumbering` makes of its place.
    mutating func renumber(_ renumbering: (UInt32) -> UInt32) {
        for index in entries.indices { entries[index].place = renumbering(entries[index].place) }
    }

    /// The index of the entry for `wanted`'s cover in the sorted part.
    private func sortedIndex(of wanted: Entry) -> Int? { entries[..<sortedCount].sortedIndex(of: wanted) }

    private static func index(of kind: ImageKind) -> UInt8 { UInt8(ImageKind.allCases.firstIndex(of: kind)!) }
}
