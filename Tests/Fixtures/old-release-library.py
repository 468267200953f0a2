#!/usr/bin/env python3
"""A library as albumkit 0.1 left it — schema version 1, the whole undo/redo history inside
the memento — for the tests that a newer albumkit opens it, keeps its history and upgrades it.

    Tests/Fixtures/old-release-library.py sqlite OUT.sqlite   write the SQLite library file
    Tests/Fixtures/old-release-library.py postgres            print the SQL that builds it in PostgreSQL

Tests/Fixtures/library-v1.sqlite is the committed output of the first form. The tables are
those of schema version 1 (`git show da994cb:Plugins/SQLiteStorage/SQLiteSchema.swift` and
`…/PostgresStorage/PostgresSchema.swift`); the rows are what 0.1 stored after these commands,
with the sort keys its row order gave: add Alpha, Beta, Gamma, Delta; move 4 --to 1;
update 4 --year 1999; remove 3; undo; select 2.
"""
import json, os, sqlite3, sys

SQLITE_SCHEMA = """
CREATE TABLE schemaVersion (version INTEGER NOT NULL);
INSERT INTO schemaVersion (version) VALUES (1);
CREATE TABLE album (
    id TEXT PRIMARY KEY NOT NULL, sortKey REAL NOT NULL, title TEXT NOT NULL, artist TEXT NOT NULL,
    genre TEXT NOT NULL, year TEXT NOT NULL, coverUrl TEXT
);
CREATE INDEX album_order ON album(sortKey);
CREATE TABLE cover (sha256 TEXT NOT NULL, fileExtension TEXT NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (sha256, fileExtension));
CREATE TABLE libraryState (id INTEGER PRIMARY KEY CHECK (id = 1), generation INTEGER NOT NULL, state BLOB NOT NULL);
"""

POSTGRES_SCHEMA = """
CREATE TABLE albumkit_schema (version integer NOT NULL);
INSERT INTO albumkit_schema (version) VALUES (1);
CREATE TABLE albumkit_albums (
    id text PRIMARY KEY, sort_key double precision NOT NULL, title text NOT NULL, artist text NOT NULL,
    genre text NOT NULL, year text NOT NULL, cover_url text
);
CREATE INDEX albumkit_albums_order ON albumkit_albums (sort_key);
CREATE TABLE albumkit_covers (sha256 text NOT NULL, file_extension text NOT NULL, bytes bytea NOT NULL, PRIMARY KEY (sha256, file_extension));
CREATE TABLE albumkit_state (id integer PRIMARY KEY CHECK (id = 1), generation bigint NOT NULL, state text NOT NULL);
"""


def album(id, title, year=""):
    return {"id": id, "title": title, "artist": "Old Release", "genre": "Rock", "year": year}


def library():
    """The rows (album fields, sort key) in order, and the memento as 0.1 wrote it."""
    alpha, beta = album("a1b2c3d4-alpha", "Alpha"), album("b1b2c3d4-beta", "Beta")
    gamma, delta = album("c1b2c3d4-gamma", "Gamma"), album("d1b2c3d4-delta", "Delta")
    gamma_1999 = dict(gamma, year="1999")
    undo = [
        {"label": "add 'Alpha'", "edits": [{"op": "insert", "index": 0, "album": alpha}]},
        {"label": "add 'Beta'", "edits": [{"op": "insert", "index": 1, "album": beta}]},
        {"label": "add 'Gamma'", "edits": [{"op": "insert", "index": 2, "album": gamma}]},
        {"label": "add 'Delta'", "edits": [{"op": "insert", "index": 3, "album": delta}]},
        {"label": "move 'Delta' from 4 to 1", "edits": [{"op": "move", "id": delta["id"], "from": 3, "to": 0}]},
        {"label": "update 'Gamma'", "edits": [{"op": "update", "before": gamma, "after": gamma_1999}]},
    ]
    redo = [{"label": "remove 'Beta'", "edits": [{"op": "remove", "index": 2, "album": beta}]}]
    state = {"version": 1, "current": alpha["id"], "undo": undo, "redo": redo}
    # Delta moved in front of Alpha's 1024; Beta came back between Alpha and Gamma.
    rows = [(delta, 0.0), (alpha, 1024.0), (beta, 2048.0), (gamma_1999, 3072.0)]
    return rows, json.dumps(state, separators=(",", ":"))


def write_sqlite(path):
    rows, state = library()
    if os.path.exists(path):
        os.remove(path)
    connection = sqlite3.connect(path)
    connection.executescript(SQLITE_SCHEMA)
    for fields, key in rows:
        connection.execute(
            "INSERT INTO album (id, sortKey, title, artist, genre, year, coverUrl) VALUES (?, ?, ?, ?, ?, ?, NULL)",
            (fields["id"], key, fields["title"], fields["artist"], fields["genre"], fields["year"]))
    connection.execute("INSERT INTO libraryState (id, generation, state) VALUES (1, 9, ?)", (state.encode(),))
    connection.commit()
    connection.execute("VACUUM")
    connection.execute("PRAGMA journal_mode = WAL")  # as 0.1 created its files
    connection.close()


def postgres_sql():
    def literal(text):
        return "'" + text.replace("'", "''") + "'"
    rows, state = library()
    statements = [POSTGRES_SCHEMA.strip()]
    for fields, key in rows:
        statements.append("INSERT INTO albumkit_albums (id, sort_key, title, artist, genre, year, cover_url) VALUES (%s, %r, %s, %s, %s, %s, NULL);" % (
            literal(fields["id"]), key, literal(fields["title"]), literal(fields["artist"]), literal(fields["genre"]), literal(fields["year"])))
    statements.append("INSERT INTO albumkit_state (id, generation, state) VALUES (1, 9, %s);" % literal(state))
    return "\n".join(statements) + "\n"


if __name__ == "__main__":
    if sys.argv[1:2] == ["sqlite"] and len(sys.argv) == 3:
        write_sqlite(sys.argv[2])
    elif sys.argv[1:] == ["postgres"]:
        sys.stdout.write(postgres_sql())
    else:
        sys.exit(__doc__)
