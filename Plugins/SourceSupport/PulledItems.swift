import AlbumKit
import Synchronization

/// A reader that hands out a source's items one at a time: the shape every source in this
/// folder reads in, so that an input advances only as fast as the import consumes it.
public protocol SourceItemReader: SendableMetatype {
    /// The next item; nil when the input is done.
    mutating func next() throws -> SourceItem?
}

/// The items of the reader `open` makes, as the stream ``AlbumSource/items(from:context:)``
/// returns. The reader is made on the first pull, so an input that cannot be opened fails
/// through the stream like any other problem; each later pull reads just far enough for one
/// more item.
public func pulledItems<Reader: SourceItemReader>(
    _ open: @escaping @Sendable () throws -> Reader
) -> AsyncThrowingStream<SourceItem, any Error> {
    let state = Mutex<Reader?>(nil)
    return AsyncThrowingStream {
        try state.withLock { reader in
            if reader == nil { reader = try open() }
            return try reader!.next()
        }
    }
}
