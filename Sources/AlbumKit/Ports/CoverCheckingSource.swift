/// An album source of this package whose covers are checked against their SHA-256 names
/// before it yields them (the bundle reader hashes every entry for its checksum list, and
/// yields no cover whose bytes hash to another name): `import` takes such a cover's key from
/// its path instead of hashing the bytes a second time. Only code built in this package can
/// adopt it; the covers of every other source are hashed as they arrive.
package protocol CoverCheckingSource: AlbumSource {}
