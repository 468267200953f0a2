#!/usr/bin/env python3
"""Fault injection for AlbumKit (`make torture`): kill -9 at random moments, then check.

    scripts/torture/torture.py [--runs 100] [--backends json,sqlite,postgres] [--seed S]
                               [--bin .build/debug/albumkit] [--work DIR] [--results FILE]
                               [--full-disk | --no-full-disk]

For each backend a template library is made the way a user makes one (init, import of a
bundle with covers, import of an album list whose covers are on a loopback HTTP server, add,
remove, undo). Each of `import`, `export`, `restore`, `migrate`, `covers fetch` and `add` is
first run to completion on fresh copies (its duration measured, the library it leaves
recorded), then run again on fresh copies and killed with SIGKILL at a moment spread over
that duration (stratified: run i of n at (i + u) / n of it, u uniform from the seed). After
each kill:
  - the library loads as it was before or after the command (`list --json`, current album,
    undo/redo depth); `covers fetch` records each cover as it lands, so there every album's
    cover may be as before or after;
  - `albumkit verify` finds no problem (notes — a stored cover linked to nothing — are
    allowed, and counted);
  - the next run (the same command again) succeeds, verify is clean, and no temporary file,
    staging folder or unreferenced history step is left anywhere in the sandbox.
PostgreSQL runs need ALBUMKIT_TEST_POSTGRES_URL (scripts/postgres-server.sh start); each run
gets a fresh database. Without it postgres is skipped with a message. Exit status 1 when any
check failed. Python standard library only.
"""
import argparse
import json
import os
import random
import shutil
import signal
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import commands  # noqa: E402
import corpus  # noqa: E402
import fulldisk  # noqa: E402
import observe  # noqa: E402
import sandbox  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=100, help="kills in all (default 100)")
    parser.add_argument("--backends", default="json,sqlite,postgres")
    parser.add_argument("--commands", default=",".join(commands.NAMES))
    parser.add_argument("--seed", type=int, default=None, help="default: from the clock (printed)")
    parser.add_argument("--bin", default=os.path.join(corpus.ROOT, ".build", "debug", "albumkit"))
    parser.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "albumkit-torture"))
    parser.add_argument("--results", default=None, help="JSON lines, one per run (default WORK/results.jsonl)")
    parser.add_argument("--albums", type=int, default=200, help="albums per bundle (default 200)")
    parser.add_argument("--full-disk", dest="full_disk", action="store_true", default=True)
    parser.add_argument("--no-full-disk", dest="full_disk", action="store_false")
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else int(time.time())
    print("torture: seed %d (rerun with --seed %d)" % (seed, seed), flush=True)
    rng = random.Random(seed)
    binary = os.path.abspath(options.bin)
    backends = options.backends.split(",")
    postgres_url = os.environ.get("ALBUMKIT_TEST_POSTGRES_URL")
    if "postgres" in backends and not postgres_url:
        print("torture: postgres skipped: ALBUMKIT_TEST_POSTGRES_URL is not set (scripts/postgres-server.sh start)")
        backends.remove("postgres")
    postgres = sandbox.Postgres(postgres_url) if postgres_url else None
    shutil.rmtree(options.work, ignore_errors=True)
    os.makedirs(options.work)
    results = open(options.results or os.path.join(options.work, "results.jsonl"), "w", encoding="utf-8")

    server = corpus.CoverServer()
    world = World(options, binary, postgres, server)
    failures = 0
    failed_lines = []
    try:
        pairs = [(command, backend) for command in options.commands.split(",") for backend in backends]
        for backend in backends:
            world.template(backend)
        for command, backend in pairs:
            world.measure(command, backend)
        plan = schedule(pairs, options.runs, rng)
        for number, (command, backend, fraction) in enumerate(plan, 1):
            outcome = world.kill_run(number, command, backend, fraction, rng)
            outcome["seed"] = seed
            results.write(json.dumps(outcome) + "\n")
            results.flush()
            failures += not outcome["ok"]
            line = "torture: %3d/%d %-12s %-8s kill at %5.0f ms: %s%s" % (
                number, len(plan), command, backend, outcome["killedAtMs"], outcome["state"],
                "" if outcome["ok"] else "  FAILED: " + "; ".join(outcome["failures"]))
            print(line, flush=True)
            if not outcome["ok"]:
                failed_lines.append(line)
        summary(world, plan, options.results or os.path.join(options.work, "results.jsonl"))
        if options.full_disk:
            failures += fulldisk.run(world, [b for b in backends if b != "postgres"], results)
    finally:
        server.close()
        world.close()
        results.close()
    # Again at the end, where a CI log's tail shows them.
    for line in failed_lines:
        print(line)
    print("torture: seed %d, %s" % (seed, "every check passed" if failures == 0 else "%d FAILED" % failures))
    return 1 if failures else 0


def schedule(pairs, runs, rng):
    """RUNS kills spread over the pairs in turn; run i of a pair's n at a fraction (i + u) / n of
    its duration, the runs of all pairs shuffled."""
    counts = {pair: runs // len(pairs) + (index < runs % len(pairs)) for index, pair in enumerate(pairs)}
    plan = []
    for (command, backend), count in counts.items():
        plan += [(command, backend, (index + rng.random()) / count) for index in range(count)]
    rng.shuffle(plan)
    return plan


class World:
    """The corpus, the template library of each backend and what each command does to it."""

    def __init__(self, options, binary, postgres, server):
        self.options, self.binary, self.postgres, self.server = options, binary, postgres, server
        self.work = options.work
        self.templates, self.before, self.after, self.durations, self.known = {}, {}, {}, {}, set()
        self.data = self.make_data()

    def make_data(self):
        out = os.path.join(self.work, "corpus")
        count = self.options.albums
        self.base, base_folder = corpus.bundle(out, count, seed=1, cover_bytes=20_000)
        extra, extra_folder = corpus.bundle(out, count, seed=2, cover_bytes=20_000)
        restore_source, restore_folder = corpus.bundle(out, count, seed=3, cover_bytes=20_000)
        self.remote, covers = corpus.remote_list(out, max(count // 5, 10), seed=4, cover_bytes=20_000, base_url=self.server.url)
        self.server.serve(covers)
        for folder in (base_folder, extra_folder, restore_folder):
            with open(os.path.join(folder, "albums.json"), encoding="utf-8") as handle:
                self.known.update(album["id"] for album in json.load(handle))
        with open(self.remote, encoding="utf-8") as handle:
            self.known.update(album["id"] for album in json.load(handle))
        # The bundle `restore` restores is a backup made by albumkit itself, history included.
        scratch = sandbox.Sandbox.fresh(os.path.join(self.work, "restore-source"), self.binary, "json")
        scratch.must("init")
        scratch.must("import", restore_source)
        scratch.must("remove", "2")
        scratch.must("add", "--title", "Made Before The Backup", "--artist", "Restore Source", "--year", "2020")
        self.known.update(album["id"] for album in json.loads(scratch.must("list", "--json").out)["albums"])
        backup = os.path.join(out, "restore.tar.gz")
        scratch.must("export", backup)
        scratch.remove()
        return commands.Data(extra, backup, self.postgres is not None)

    def template(self, backend):
        """The library every run of BACKEND starts from."""
        database = "%s_template" % self.postgres.prefix if backend == "postgres" else None
        box = sandbox.Sandbox.fresh(os.path.join(self.work, "template-" + backend), self.binary, backend, self.postgres, database)
        box.must("init")
        box.must("import", self.base)
        box.must("import", self.remote)
        box.must("add", "--title", "Template Album", "--artist", "Torture", "--year", "2001")
        box.must("remove", "1")
        box.must("undo")
        self.known.update(album["id"] for album in json.loads(box.must("list", "--json").out)["albums"])
        self.templates[backend] = box
        self.before[backend] = observe.state(box, self.known)
        print("torture: %s template: %s" % (backend, self.before[backend].describe()), flush=True)

    def fresh(self, backend, name):
        database = "%s_%s" % (self.postgres.prefix, name) if backend == "postgres" else None
        return self.templates[backend].clone(os.path.join(self.work, name), database)

    def destination(self, command, backend, name):
        """A fresh empty database for a migrate into postgres, else None."""
        if command == "migrate" and commands.migrate_target(backend, self.data.postgres) == "postgres":
            return self.postgres.create("%s_%s_dst" % (self.postgres.prefix, name))
        return None

    def drop_destination(self, name):
        if self.postgres:
            self.postgres.drop("%s_%s_dst" % (self.postgres.prefix, name))

    def measure(self, command, backend):
        """Runs COMMAND to completion three times: its duration, and the library it leaves."""
        seconds = []
        for attempt in range(3):
            name = "measure-%s-%s-%d" % (command.replace(" ", "-"), backend, attempt)
            box = self.fresh(backend, name)
            result = box.run(*commands.arguments(command, box, self.data, self.destination(command, backend, name)))
            if result.status != 0:
                raise RuntimeError("%s on %s failed when run whole: %s" % (command, backend, result.err.strip()[-800:]))
            seconds.append(result.seconds)
            after = observe.state(box, self.known)
            if attempt and after != self.after[(command, backend)]:
                raise RuntimeError("%s on %s leaves a different library each time" % (command, backend))
            self.after[(command, backend)] = after
            box.remove()
            self.drop_destination(name)
        self.durations[(command, backend)] = statistics.median(seconds)
        print("torture: %-12s on %-8s takes %6.0f ms (median of 3): %s" % (
            command, backend, 1000 * self.durations[(command, backend)], self.after[(command, backend)].describe()), flush=True)

    def kill_run(self, number, command, backend, fraction, rng):
        """One run killed at FRACTION of the command's duration; what it found. A command that
        finished before its kill is run again, killed earlier (up to 5 times)."""
        duration = self.durations[(command, backend)]
        name = "run-%d" % number
        for attempt in range(5):
            box = self.fresh(backend, name)
            destination = self.destination(command, backend, name)
            delay = fraction * duration * (0.6 ** attempt)
            process = box.start(*commands.arguments(command, box, self.data, destination))
            time.sleep(delay)
            killed = process.poll() is None
            if killed:
                os.kill(process.pid, signal.SIGKILL)
            process.communicate()
            if killed:
                break
            box.remove()
            self.drop_destination(name)
        outcome = {"run": number, "command": command, "backend": backend, "killedAtMs": round(delay * 1000),
                   "durationMs": round(duration * 1000), "fraction": round(fraction, 3), "attempts": attempt + 1,
                   "killed": killed, "failures": []}
        try:
            self.check(outcome, box, command, backend, destination)
        finally:
            box.remove()
            self.drop_destination(name)
        outcome["ok"] = killed and not outcome["failures"]
        if not killed:
            outcome["failures"].append("finished before every kill")
        return outcome

    def check(self, outcome, box, command, backend, destination):
        failures = outcome["failures"]
        before, after = self.before[backend], self.after[(command, backend)]
        try:
            found = observe.state(box, self.known)
        except observe.LoadFailure as failure:
            outcome["state"] = "does not load"
            failures.append("the library does not load: %s" % failure)
            return
        outcome["state"] = commands.judge(command, found, before, after, box.backend() != backend) or "neither"
        if outcome["state"] == "neither":
            failures.append("the library is neither as before (%s) nor as after (%s): %s" % (before.describe(), after.describe(), found.describe()))
        clean, notes, problems = observe.verify(box)
        outcome["notes"] = len(notes)
        if not clean:
            failures.append("verify: %s" % "; ".join(problems)[:400])
        if command == "export":
            exported = os.path.join(box.out, "backup.tar.gz")
            outcome["exportFile"] = "absent"
            if os.path.exists(exported):
                result = box.run("verify", exported)
                outcome["exportFile"] = "complete" if result.status == 0 else "damaged"
                if result.status != 0:
                    failures.append("the export file is there but damaged: %s" % result.err.strip()[:300])
        outcome["leftAfterKill"] = observe.leftovers([box.folder], self.library_file(box))
        rerun = box.run(*commands.next_run(command, box, self.data, destination))
        if rerun.status != 0:
            failures.append("the next run failed: %s" % rerun.err.strip()[:300])
        clean, notes, problems = observe.verify(box)
        outcome["notesAfterNextRun"] = len(notes)
        if not clean:
            failures.append("verify after the next run: %s" % "; ".join(problems)[:400])
        left = observe.leftovers([box.folder], self.library_file(box))
        if left:
            failures.append("left after the next run: %s" % ", ".join(left[:5]))

    def library_file(self, box):
        return os.path.join(box.library, "library.json") if box.backend() == "json" else None

    def close(self):
        for box in self.templates.values():
            box.remove()


def summary(world, plan, results_path):
    """The table for RELIABILITY.md, from the results file."""
    with open(results_path, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    print("\n| command | backend | duration | kills | before | after | partial | left by the kill (cleaned by the next run) | verify notes | failed |")
    print("|---|---|---:|---:|---:|---:|---:|---|---:|---:|")
    keys = sorted({(row["command"], row["backend"]) for row in rows}, key=lambda key: (commands.NAMES.index(key[0]), key[1]))
    for command, backend in keys:
        mine = [row for row in rows if (row["command"], row["backend"]) == (command, backend)]
        states = [row.get("state") for row in mine]
        left = {}
        for row in mine:
            for item in row.get("leftAfterKill", []):
                kind = leftover_kind(item)
                left[kind] = left.get(kind, 0) + 1
        print("| %s | %s | %.0f ms | %d | %d | %d | %d | %s | %d | %d |" % (
            command, backend, 1000 * world.durations[(command, backend)], sum(row["killed"] for row in mine),
            states.count("before"), states.count("after"), states.count("partial"),
            ", ".join("%s ×%d" % item for item in sorted(left.items())) or "nothing",
            sum(row.get("notes", 0) for row in mine), sum(not row["ok"] for row in mine)))
    print()


def leftover_kind(item):
    if item.startswith("unreferenced step"):
        return "history step"
    if ".albumkit-staging-" in item:
        return "staging folder"
    if "/covers/" in "/" + item:
        return "cover temp file"
    if item.startswith("out/"):
        return "export temp file"
    if "backups/" in item:
        return "backup temp file"
    return "temp file " + os.path.basename(item).split(".tmp-")[0].lstrip(".")


if __name__ == "__main__":
    sys.exit(main())
