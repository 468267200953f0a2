"""A full disk: on a small tmpfs (mounted when root; skipped with a message otherwise), `import`,
`export` and a save (`add`) are run with little or no room left. Each must fail with one
`error:` line and a non-zero status, leave no file of its own behind, and lose nothing: once
room is made, the library is as before, `verify` is clean and the next save works."""
import json
import os
import shutil
import subprocess

import commands
import observe

MIB = 1 << 20


def room_left(folder):
    status = os.statvfs(folder)
    return status.f_bavail * status.f_frsize


def fill(folder, keep):
    """A file in FOLDER that leaves KEEP bytes free (to the page: tmpfs counts pages)."""
    path = os.path.join(folder, "filler")
    with open(path, "wb") as handle:
        chunk = b"\0" * MIB
        while room_left(folder) - keep >= MIB:
            handle.write(chunk)
            handle.flush()
        rest = room_left(folder) - keep
        if rest > 0:
            handle.write(b"\0" * rest)
            handle.flush()
    return path


def folder_bytes(folder):
    return sum(os.path.getsize(os.path.join(parent, name)) for parent, _, names in os.walk(folder) for name in names)


def cases(world, backend, box):
    """(command, arguments, bytes to leave free): each command at a few fill levels."""
    library_file = os.path.join(box.library, "library.json" if backend == "json" else "library.sqlite")
    export = os.path.join(box.out, "backup.tar.gz")
    covers = world.options.albums * 20_480  # the bundle's covers, in tmpfs pages
    return [
        ("import", ["import", world.data.extra], 0),
        ("import", ["import", world.data.extra], covers // 4),
        ("import", ["import", world.data.extra], covers // 2),
        ("import", ["import", world.data.extra], covers + 8192),
        ("export", ["export", export], 0),
        ("export", ["export", export], 256 * 1024),
        ("export", ["export", export], covers // 2),
        ("add", commands.arguments("add", box, world.data), 0),
        ("add", commands.arguments("add", box, world.data), os.path.getsize(library_file) // 2),
    ]


def run(world, backends, results):
    """Every case on every backend; returns how many failed."""
    if os.geteuid() != 0:
        print("torture: full-disk cases skipped: mounting a tmpfs needs root")
        return 0
    mount = os.path.join(world.work, "disk")
    os.makedirs(mount, exist_ok=True)
    size = folder_bytes(world.templates[backends[0]].folder) + world.options.albums * 20_480 * 3 + 8 * MIB
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%d" % size, "tmpfs", mount], capture_output=True, text=True)
    if mounted.returncode != 0:
        print("torture: full-disk cases skipped: cannot mount a tmpfs (%s)" % mounted.stderr.strip())
        return 0
    failures = 0
    rows = []
    try:
        for backend in backends:
            for number in range(len(cases(world, backend, world.templates[backend]))):
                box = world.templates[backend].clone(os.path.join(mount, "case"))
                # The case's arguments name its own sandbox (the export file in box.out).
                command, arguments, keep = cases(world, backend, box)[number]
                filler = fill(mount, keep)
                result = box.run(*arguments)
                os.unlink(filler)
                row = check(world, backend, box, command, keep, result)
                rows.append(row)
                results.write(json.dumps(row) + "\n")
                failures += not row["ok"]
                print("torture: full disk %-6s %-6s %7d bytes free: %s%s" % (
                    backend, command, keep, row["error"] or "(it fit)", "" if row["ok"] else "  FAILED: " + "; ".join(row["failures"])), flush=True)
                box.remove()
    finally:
        subprocess.run(["umount", mount])
    print("\n| backend | command | bytes free | exit | error | library after | verify | left behind |")
    print("|---|---|---:|---:|---|---|---|---|")
    for row in rows:
        print("| %s | %s | %d | %d | %s | %s | %s | %s |" % (
            row["backend"], row["command"], row["free"], row["status"], (row["error"] or "(it fit)").replace("|", "\\|"),
            row["state"], "clean" if row["verified"] else "PROBLEMS", ", ".join(row["left"]) or "nothing"))
    print()
    return failures


def check(world, backend, box, command, keep, result):
    before = world.before[backend]
    row = {"fullDisk": True, "backend": backend, "command": command, "free": keep, "status": result.status,
           "error": result.error_lines[0] if result.error_lines else None, "failures": []}
    failures = row["failures"]
    left = observe.leftovers([box.folder], os.path.join(box.library, "library.json") if backend == "json" else None)
    row["left"] = left
    if left:
        failures.append("left behind: %s" % ", ".join(left[:5]))
    found = observe.state(box, world.known)
    fit = result.status == 0
    row["state"] = "as before" if found == before else ("as after" if fit else "CHANGED")
    if not fit:
        if len(result.error_lines) != 1:
            failures.append("%d error: lines (%s)" % (len(result.error_lines), result.err.strip()[:300]))
        if found != before:
            failures.append("the library changed: %s, was %s" % (found.describe(), before.describe()))
    if command == "export" and not fit and os.path.exists(os.path.join(box.out, "backup.tar.gz")):
        failures.append("a partial export file was left")
    row["verified"], _, problems = observe.verify(box)
    if not row["verified"]:
        failures.append("verify: %s" % "; ".join(problems)[:300])
    saved = box.run(*commands.arguments("add", box, world.data))
    if saved.status != 0:
        failures.append("the next save failed once there was room: %s" % saved.err.strip()[:300])
    row["ok"] = not failures
    return row
