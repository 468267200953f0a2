"""The few lines every AlbumKit plugin program in Python needs: one JSON message a line on
standard output, one from standard input (docs/plugin-protocol.md, version 1). Standard
library only; the example plugins beside this file import it."""
import json
import sys

PROTOCOL = 1


def send(message):
    """Writes `message` as one line and flushes it, so AlbumKit sees it at once."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def receive():
    """The next message from AlbumKit, or None once it has closed our input (time to exit)."""
    line = sys.stdin.readline()
    return json.loads(line) if line else None


def start(kind, name, version, settings=()):
    """Says hello as a `kind` plugin declaring `settings`, and returns the settings AlbumKit
    answers with (None when it closed our input instead)."""
    send({"type": "hello", "protocol": PROTOCOL, "kind": kind, "name": name, "version": version,
          "settings": list(settings)})
    configure = receive()
    return None if configure is None else configure.get("settings", {})
