"""What a library looks like from outside: its albums and memento as `albumkit list --json` and
the `library.stateRestored` event show them, what `albumkit verify` says, and what files a
crash may have left in its folders."""
import json
import os
import tempfile

COVERLESS = "cover"  # the one field `covers fetch` may change album by album


class State:
    """Albums (every field `list --json` gives, ids canonical), current album, history depth."""

    def __init__(self, albums, current, undo, redo):
        self.albums, self.current, self.undo, self.redo = albums, current, undo, redo

    def key(self, without_covers=False):
        albums = tuple(tuple((k, v) for k, v in sorted(album.items()) if not (without_covers and k == COVERLESS))
                       for album in self.albums)
        return albums, self.current, self.undo, self.redo

    def __eq__(self, other):
        return isinstance(other, State) and self.key() == other.key()

    def describe(self):
        return "%d albums, undo %d, redo %d" % (len(self.albums), self.undo, self.redo)


def state(box, known_ids):
    """The library of BOX as it loads now. An id outside KNOWN_IDS (one `add` generated) reads
    as "<new>", so two runs of the same command compare equal."""
    events = os.path.join(tempfile.gettempdir(), "albumkit-torture-events-%d.jsonl" % os.getpid())
    if os.path.exists(events):
        os.unlink(events)
    result = box.run("--events", events, "list", "--json")
    if result.status != 0:
        raise LoadFailure(result.err.strip())
    listed = json.loads(result.out)
    restored = {}
    with open(events, encoding="utf-8") as handle:
        for line in handle:
            event = json.loads(line)
            if event.get("event") == "library.stateRestored":
                restored = event
    os.unlink(events)
    canonical = lambda value: value if value is None or value in known_ids else "<new>"
    albums = []
    for album in listed["albums"]:
        album = dict(album)
        album["id"] = canonical(album["id"])
        albums.append(album)
    return State(albums, canonical(listed["current"]), restored.get("undo"), restored.get("redo"))


class LoadFailure(Exception):
    """The library did not load after a kill."""


def verify(box):
    """(clean, notes, problems) of `albumkit verify` on BOX's library."""
    result = box.run("verify")
    lines = result.out.splitlines()
    notes = [line for line in lines if line.startswith("note:")]
    problems = [line for line in lines if line.startswith("problem:")] + result.error_lines
    return result.status == 0 and not problems, notes, problems


def leftovers(folders, library_file=None):
    """Temporary files, staging folders and pending covers under FOLDERS, and history step files
    the library file LIBRARY_FILE (a JSON library) does not name."""
    found = []
    for folder in folders:
        for parent, names, files in os.walk(folder):
            for name in names + files:
                if ".tmp-" in name or name.startswith(".albumkit-staging-") or name.endswith(".pending-covers"):
                    found.append(os.path.relpath(os.path.join(parent, name), folder))
            names[:] = [name for name in names if not name.startswith(".albumkit-staging-")]
    if library_file and os.path.exists(library_file):
        with open(library_file, encoding="utf-8") as handle:
            memento = json.load(handle).get("state", {})
        named = {str(ref["id"]) for ref in memento.get("undo", []) + memento.get("redo", [])}
        history = os.path.splitext(library_file)[0] + ".history"
        for name in sorted(os.listdir(history)) if os.path.isdir(history) else []:
            if name.split(".")[0] not in named and ".tmp-" not in name:
                found.append("unreferenced step %s" % os.path.relpath(os.path.join(history, name), os.path.dirname(library_file)))
    return found
