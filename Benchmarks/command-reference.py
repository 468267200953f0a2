#!/usr/bin/env python3
"""The Python references for single commands on a library (Benchmarks/run.py, group `commands`).

    Benchmarks/command-reference.py extract LIBRARY_JSON OUT   the albums alone, as a plain list (untimed)
    Benchmarks/command-reference.py json ALBUMS_JSON           json.load of the albums
    Benchmarks/command-reference.py sqlite LIBRARY_SQLITE      sqlite3: select every album row
    Benchmarks/command-reference.py sqlite-list LIBRARY_SQLITE sqlite3: select and print every row, as `list` does

What a user would write with the standard library to read the same albums a command reads.
"""
import json, sqlite3, sys

SELECT = "SELECT id, title, artist, genre, year, cover_url FROM albumkit_albums ORDER BY sort_key"


def main(mode, path, *rest):
    if mode == "extract":
        with open(path, "rb") as handle:
            albums = json.load(handle)["albums"]
        with open(rest[0], "w") as out:
            json.dump(albums, out, ensure_ascii=False)
    elif mode == "json":
        with open(path, "rb") as handle:
            json.load(handle)
    elif mode == "sqlite":
        sqlite3.connect("file:%s?mode=ro" % path, uri=True).execute(SELECT).fetchall()
    elif mode == "sqlite-list":
        rows = sqlite3.connect("file:%s?mode=ro" % path, uri=True).execute(SELECT).fetchall()
        out = sys.stdout
        for position, (_, title, artist, genre, year, cover) in enumerate(rows, 1):
            out.write("%d  %s  %s  %s  %s  %s\n" % (position, title, artist, year, genre, "none" if cover is None else "stored"))
    else:
        sys.exit("unknown mode %r" % mode)


if __name__ == "__main__":
    main(*sys.argv[1:])
