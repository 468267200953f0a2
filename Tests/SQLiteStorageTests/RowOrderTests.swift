import AlbumKit
import Testing

/// The sort-key scheme both database backends store positions with.
@Suite struct RowOrderTests {
    private static func album(_ index: Int) -> Album {
        try! Album(id: AlbumID("row-\(index)"), title: "Album \(index)", artist: "Artist")
    }

    @Test func insertingAtPositionTwoOfAHundredThousandTouchesOneRow() throws {
        var order = RowOrder(evenlySpaced: (0..<100_000).map { AlbumID("row-\($0)") })
        let operations = try order.operations(for: .edits([.insert(Self.album(-1), at: 1)]), snapshot: LibrarySnapshot())
        #expect(operations.count == 1)
        #expect(order.ids[1] == AlbumID("row--1"))
    }

    @Test func repeatedInsertsAtOneSpotStayCheapAndOrdered() throws {
        var order = RowOrder(evenlySpaced: (0..<100_000).map { AlbumID("row-\($0)") })
        var touched = 0
        for index in 0..<2000 {
            touched += try order.operations(for: .edits([.insert(Self.album(100_000 + index), at: 1)]), snapshot: LibrarySnapshot()).count
        }
        #expect(zip(order.keys, order.keys.dropFirst()).allSatisfy { $0 < $1 })
        #expect(touched < 2000 * 20, "2000 inserts at one spot touched \(touched) rows")
    }

    @Test func randomEditsKeepTheOrderOfAPlainArray() throws {
        var generator = SystemRandomNumberGenerator()
        var order = RowOrder(evenlySpaced: [])
        var model: [AlbumID] = []
        for step in 0..<5000 {
            let edit: LibraryEdit
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6 where true:
                edit = .insert(Self.album(step), at: Int.random(in: 0...model.count, using: &generator))
            case 6..<8 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &generator)
                edit = .remove(try Album(id: model[index], title: "x", artist: "y"), at: index)
            case _ where model.count > 1:
                let from = Int.random(in: 0..<model.count, using: &generator)
                edit = .move(model[from], from: from, to: Int.random(in: 0..<model.count, using: &generator))
            default:
                continue
            }
            var snapshot = LibrarySnapshot(albums: model.map { try! Album(id: $0, title: "x", artist: "y") })
            try snapshot.apply(edit)
            _ = try order.operations(for: .edits([edit]), snapshot: snapshot)
            model = snapshot.albums.map(\.id)
        }
        #expect(order.ids == model)
        #expect(zip(order.keys, order.keys.dropFirst()).allSatisfy { $0 < $1 })
    }
}
