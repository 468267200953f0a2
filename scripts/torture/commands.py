"""The commands torture kills, what each may leave the library as, and how it is run again."""
import os

NAMES = ["import", "export", "restore", "migrate", "covers fetch", "add"]


class Data:
    """The inputs: the bundle `import` merges in, the backup bundle `restore` restores."""

    def __init__(self, extra, restore, postgres):
        self.extra, self.restore, self.postgres = extra, restore, postgres


def migrate_target(backend, postgres):
    """Where `migrate` moves a library of BACKEND: json -> sqlite -> postgres -> json (without a
    PostgreSQL server, sqlite -> json)."""
    return {"json": "sqlite", "sqlite": "postgres" if postgres else "json", "postgres": "json"}[backend]


def arguments(command, box, data, destination_url=None):
    """The argument list of COMMAND on BOX (migrate to postgres: into DESTINATION_URL)."""
    if command == "import":
        return ["import", data.extra]
    if command == "export":
        return ["export", "--force", os.path.join(box.out, "backup.tar.gz")]
    if command == "restore":
        return ["restore", "--force", data.restore]
    if command == "migrate":
        target = migrate_target(box.initial_backend, data.postgres)
        return ["migrate", "--to", target] + (["--url", destination_url] if target == "postgres" else [])
    if command == "covers fetch":
        return ["covers", "fetch"]
    if command == "add":
        # --yes: when the kill came after the save, the next run adds the same album again.
        return ["add", "--yes", "--title", "Killed Mid-Save", "--artist", "Nine Signals", "--year", "1999"]
    raise ValueError(command)


def next_run(command, box, data, destination_url=None):
    """What a user runs after the crash: the same command again; after a migrate that had
    already switched the configuration (it cannot migrate onto itself), a save (`add`)."""
    if command == "migrate" and box.backend() != box.initial_backend:
        return arguments("add", box, data)
    return arguments(command, box, data, destination_url)


def judge(command, found, before, after, switched):
    """How the library a kill left compares: "before", "after", "partial" (covers fetch records
    each cover as it lands: every album's cover as before or as after, nothing else changed),
    or None when it is neither."""
    if command == "migrate":
        # The content is the same on both sides; which side is in use tells before from after.
        return ("after" if switched else "before") if found == before else None
    if found == before:
        return "before"
    if found == after:
        return "after"
    if command == "covers fetch" and found.key(without_covers=True) == before.key(without_covers=True):
        pairs = zip(found.albums, before.albums, after.albums)
        if all(now["cover"] in (was["cover"], will["cover"]) for now, was, will in pairs):
            return "partial"
    return None
