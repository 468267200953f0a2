import ArgumentParser

/// How the commands that take albums describe them in their help.
enum AlbumWords {
    /// For commands that take one album.
    static let help = ArgumentHelp(
        "The album: a position, an id, a unique id prefix (6+ characters), or a query matching exactly one album.",
        valueName: "album")

    /// For commands that change several albums.
    static let helpForSeveral = ArgumentHelp(
        "Positions, ids or unique id prefixes, or else one query (see 'albumkit help queries').",
        valueName: "albums")
}
