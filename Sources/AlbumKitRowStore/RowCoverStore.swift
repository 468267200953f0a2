import AlbumKit
import Foundation

/// The covers of a ``RowStore``: blobs in table `albumkit_covers`, one row per SHA-256 and
/// extension; each call is atomic by itself (one statement, or one transaction for a batch).
struct RowCoverStore<Driver: RowStoreDriver>: CoverStore, CoverKeysInStoredOrder {
    let store: RowStore<Driver>

    func put(_ bytes: Data, fileExtension: String) async throws -> CoverKey {
        let key = CoverKey(bytes: bytes, fileExtension: fileExtension)
        try await store.withReader(transaction: false) { reader in
            try await reader.connection.execute(RowStoreSQL.putCover, Self.arguments(key) + [.blob(bytes)])
        }
        return key
    }

    func data(for key: CoverKey) async throws -> Data? {
        try await store.withReader(transaction: false) { reader in
            try await reader.connection.first(RowStoreSQL.coverBytes, Self.arguments(key)) { try $0.bytes(0) }
        }
    }

    /// One query for the whole batch (`sha256 IN (…)`), matched back to the keys in Swift.
    func data(for keys: [CoverKey]) async throws -> [Data?] {
        guard !keys.isEmpty else { return [] }
        let digests = Array(Set(keys.map(\.sha256)))
        let rows = try await store.withReader(transaction: false) { reader in
            try await reader.connection.query(RowStoreSQL.coverBytes(count: digests.count), digests.map { .text($0) }) {
                (CoverKey(sha256: try $0.text(0), fileExtension: try $0.text(1)), try $0.bytes(2))
            }
        }
        let found = Dictionary(rows, uniquingKeysWith: { first, _ in first })
        return keys.map { found[$0] }
    }

    /// One statement for the batch: `ON CONFLICT DO NOTHING` skips a cover already stored,
    /// and `RETURNING` names the rows it added. Atomic by itself, so a failure stores none.
    /// Where the engine can (``RowStoreDriver/deferredDurability``), it runs in a transaction
    /// whose commit does not wait for the disk; ``makeDurable()`` waits once for every batch.
    /// A connection lost while committing may leave a batch stored although this throws: covers
    /// no album names, garbage for `covers prune`.
    func insert(_ covers: [(key: CoverKey, bytes: Data)]) async throws -> [CoverKey] {
        var seen = Set<CoverKey>()
        let unique = covers.filter { seen.insert($0.key).inserted }
        guard !unique.isEmpty else { return [] }
        let arguments = unique.flatMap { Self.arguments($0.key) + [.blob($0.bytes)] }
        let deferred = store.driver.deferredDurability
        let added = try await store.withReader(transaction: false) { reader in
            if let deferred {
                try await reader.connection.execute("BEGIN", [])
                try await reader.connection.execute(deferred.relaxing, [])
            }
            let added = try await reader.connection.query(RowStoreSQL.insertCovers(unique.count, verb: store.driver.insertVerb), arguments) {
                CoverKey(sha256: try $0.text(0), fileExtension: try $0.text(1))
            }
            if deferred != nil { try await reader.connection.execute("COMMIT", []) }
            return added
        }
        let addedKeys = Set(added)
        return unique.map(\.key).filter(addedKeys.contains)
    }

    /// Runs the engine's barrier, whose commit waits for the disk and with it for every batch
    /// committed before; nothing where commits never wait.
    func makeDurable() async throws {
        guard let deferred = store.driver.deferredDurability else { return }
        try await store.withReader(transaction: false) { reader in try await reader.connection.execute(deferred.barrier, []) }
    }

    func contains(_ key: CoverKey) async throws -> Bool {
        try await store.withReader(transaction: false) { reader in
            try await reader.connection.first(RowStoreSQL.hasCover, Self.arguments(key)) { try $0.integer(0) } ?? 0 > 0
        }
    }

    /// One query for the whole batch (``RowConnection/storedCoverKeys(among:)``), matched back
    /// to the keys in Swift.
    func storedKeys(among keys: [CoverKey]) async throws -> Set<CoverKey> {
        guard !keys.isEmpty else { return [] }
        let digests = Array(Set(keys.map(\.sha256)))
        let rows = try await store.withReader(transaction: false) { reader in try await reader.connection.storedCoverKeys(among: digests) }
        return Set(rows.map { CoverKey(sha256: $0.sha256, fileExtension: $0.fileExtension) }).intersection(keys)
    }

    func keys() async throws -> [CoverKey] {
        try await store.withReader(transaction: false) { reader in
            try await reader.connection.query(RowStoreSQL.coverKeys, []) { CoverKey(sha256: try $0.text(0), fileExtension: try $0.text(1)) }
        }
    }

    /// In the driver's ``RowStoreDriver/storedOrder``, each key's place the value of that
    /// expression; sorted, with no places, when the driver has none.
    func keysInStoredOrder() async throws -> (keys: [CoverKey], places: [Int64]?) {
        guard let order = store.driver.storedOrder else { return (try await keys(), nil) }
        let rows = try await store.withReader(transaction: false) { reader in
            try await reader.connection.query(RowStoreSQL.coverKeys(inOrderOf: order), []) {
                (CoverKey(sha256: try $0.text(0), fileExtension: try $0.text(1)), try $0.integer(2))
            }
        }
        return (rows.map(\.0), rows.map(\.1))
    }

    /// One query for the batch by the rows' places (a seek in the table each, not one in the
    /// digests' index and another in the table), matched back to the keys in Swift.
    func data(for keys: [CoverKey], at places: [Int64]) async throws -> [Data?] {
        guard let order = store.driver.storedOrder, !keys.isEmpty else { return try await data(for: keys) }
        let rows = try await store.withReader(transaction: false) { reader in
            try await reader.connection.query(RowStoreSQL.coverBytes(count: places.count, inOrderOf: order), places.map { .integer($0) }) {
                (CoverKey(sha256: try $0.text(0), fileExtension: try $0.text(1)), try $0.bytes(2))
            }
        }
        let found = Dictionary(rows, uniquingKeysWith: { first, _ in first })
        return keys.map { found[$0] }
    }

    func remove(_ key: CoverKey) async throws -> Int {
        try await store.withReader(transaction: false) { reader in
            Int(try await reader.connection.first(RowStoreSQL.removeCover, Self.arguments(key)) { try $0.integer(0) } ?? 0)
        }
    }

    private static func arguments(_ key: CoverKey) -> [SQLValue] { [.text(key.sha256), .text(key.fileExtension)] }
}
