/// The tables of a library in PostgreSQL before the shared row-store layout, as each older
/// albumkit made them: a database at version `n` is brought to `n + 1` by `steps[n]`.
/// Append, never edit.
enum PostgresLegacySchema {
    static let steps: [[String]] = [
        // Version 1: albums, covers, and the memento with the whole history inside.
        [
            """
            CREATE TABLE albumkit_albums (
                id text PRIMARY KEY,
                sort_key double precision NOT NULL,
                title text NOT NULL,
                artist text NOT NULL,
                genre text NOT NULL,
                year text NOT NULL,
                cover_url text
            )
            """,
            "CREATE INDEX albumkit_albums_order ON albumkit_albums (sort_key)",
            """
            CREATE TABLE albumkit_covers (
                sha256 text NOT NULL,
                file_extension text NOT NULL,
                bytes bytea NOT NULL,
                PRIMARY KEY (sha256, file_extension)
            )
            """,
            """
            CREATE TABLE albumkit_state (
                id integer PRIMARY KEY CHECK (id = 1),
                generation bigint NOT NULL,
                state text NOT NULL
            )
            """,
            #"INSERT INTO albumkit_state (id, generation, state) VALUES (1, 0, '{"version":1,"current":null,"undo":[],"redo":[]}')"#,
        ],
        // Version 2: one row per history step.
        ["CREATE TABLE albumkit_history (id bigint PRIMARY KEY, step text NOT NULL)"],
        // Version 3: the tables already have the names the row store uses.
        [],
    ]
}
