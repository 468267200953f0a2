#!/usr/bin/env python3
"""An AlbumKit import stage plugin: renames genres by a table in its settings.

    plugins:
      commands:
        - {name: genre-map, kind: stage, run: [python3, /path/to/genre_map.py]}
      genre-map:
        table: {"Hip-Hop": "Hip hop", "Rock & Roll": "Rock and roll"}
        caseSensitive: false
    import:
      stages: [validate, normalize, genre-map, dedupe, covers]

Every album passes; one whose genre is in the table passes with the genre renamed. Speaks
version 1 of docs/plugin-protocol.md; Python 3 standard library only, with the helper
albumkit_plugin.py beside it.
"""
from albumkit_plugin import receive, send, start


def main():
    settings = start("stage", "genre-map", "1.0.0", [
        {"key": "table", "type": "map", "default": {}, "summary": "genre as imported -> genre to keep"},
        {"key": "caseSensitive", "type": "flag", "default": "false", "summary": "match genres with case as written"},
    ])
    if settings is None:
        return
    exact = settings.get("caseSensitive", "false").lower() in ("true", "yes", "on", "1")
    table = {(key if exact else key.casefold()): value for key, value in settings.get("table", {}).items()}
    while True:
        request = receive()
        if request is None:
            return
        album = request["album"]
        genre = album.get("genre", "")
        renamed = table.get(genre if exact else genre.casefold())
        if renamed is None or renamed == genre:
            send({"type": "pass"})
        else:
            album["genre"] = renamed
            send({"type": "pass", "album": album})


if __name__ == "__main__":
    main()
