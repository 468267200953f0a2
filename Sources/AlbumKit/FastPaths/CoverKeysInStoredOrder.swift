import Foundation

/// A cover store that keeps its covers in an order of its own (a database table's rows, as
/// they were added) and reads them by their places there: an export that reads every cover
/// reads them in that order, so that each of the store's pages is read once. Read in the order
/// of their digests, 600-byte covers scattered over a table's pages had each page read once
/// for every cover on it, about 20 times (BENCHMARKS.md: the `.tar.zst` export). Reached
/// through ``ExportContents/coverKeysInStoredOrder()``.
///
/// For this package's own modules, not part of the toolkit's API.
package protocol CoverKeysInStoredOrder: CoverStore {
    /// Every stored key once (the keys ``CoverStore/keys()`` lists) in the store's order, and
    /// beside each its place in the store; nil places when the store has no order of its own
    /// (the keys are then sorted).
    func keysInStoredOrder() async throws -> (keys: [CoverKey], places: [Int64]?)
    /// What ``CoverStore/data(for:)`` returns for each of `keys`, in order, read by `places`
    /// (the places ``keysInStoredOrder()`` gave them, one for each key) in one trip. A cover
    /// no longer at its place is nil, as one no longer stored is.
    func data(for keys: [CoverKey], at places: [Int64]) async throws -> [Data?]
}
