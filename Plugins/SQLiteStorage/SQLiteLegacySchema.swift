/// The tables of a library file before the shared row-store layout, as each older albumkit
/// made them: a file at version `n` is brought to `n + 1` by `steps[n]`. Append, never edit.
enum SQLiteLegacySchema {
    static let steps: [[String]] = [
        // Version 1: albums, covers, and the memento with the whole history inside.
        [
            """
            CREATE TABLE album (
                id TEXT PRIMARY KEY NOT NULL,
                sortKey REAL NOT NULL,
                title TEXT NOT NULL,
                artist TEXT NOT NULL,
                genre TEXT NOT NULL,
                year TEXT NOT NULL,
                coverUrl TEXT
            )
            """,
            "CREATE INDEX album_order ON album(sortKey)",
            """
            CREATE TABLE cover (
                sha256 TEXT NOT NULL,
                fileExtension TEXT NOT NULL,
                bytes BLOB NOT NULL,
                PRIMARY KEY (sha256, fileExtension)
            )
            """,
            """
            CREATE TABLE libraryState (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                generation INTEGER NOT NULL,
                state BLOB NOT NULL
            )
            """,
            #"INSERT INTO libraryState (id, generation, state) VALUES (1, 0, '{"version":1,"current":null,"undo":[],"redo":[]}')"#,
        ],
        // Version 2: one row per history step.
        ["CREATE TABLE historyStep (id INTEGER PRIMARY KEY, step BLOB NOT NULL)"],
        // Version 3: the names PostgreSQL's tables have, which the row store uses for both.
        [
            "ALTER TABLE album RENAME TO albumkit_albums",
            "ALTER TABLE albumkit_albums RENAME COLUMN sortKey TO sort_key",
            "ALTER TABLE albumkit_albums RENAME COLUMN coverUrl TO cover_url",
            "ALTER TABLE cover RENAME TO albumkit_covers",
            "ALTER TABLE albumkit_covers RENAME COLUMN fileExtension TO file_extension",
            "ALTER TABLE libraryState RENAME TO albumkit_state",
            "ALTER TABLE historyStep RENAME TO albumkit_history",
        ],
    ]
}
