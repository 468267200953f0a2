#!/usr/bin/env python3
"""`make bench`: AlbumKit measured side by side with the standard tools, in one run.

    Benchmarks/run.py [--quick | --scale] [--bin DIR] [--work DIR] [--output FILE] [--runs N] [--only NAME,…]
                      [--collector] [--before DIR [--before-whole]] [--sizes N,…] [--backends NAME,…] [--exports tar.gz,tar.zst]

Generates the corpus (Benchmarks/make-corpus.py, cached in the work folder), runs every row —
ours and the reference tool alternately, each run in a fresh folder, timed by wall clock with
its peak resident memory from `/usr/bin/time -v` — and writes the tables: the median of the
runs, the ratio, and whether the aim is met. Full runs replace the generated part of
BENCHMARKS.md (between its markers, so notes outside them stay); `--quick` runs everything at
small sizes (a smoke test for CI: nothing is asserted) and writes to the work folder; `--scale`
adds 100 000-album libraries (small covers) to the import, command and export rows
(`make bench-scale`), and writes BENCHMARKS.md too.
Exits non-zero when a row fails (a missing optional backend is "not available", not a failure).

Libraries are made the way users make them: `init`, a real `import` of a bundle with covers,
then a few changes, so that the history holds the import.

`--collector` makes every album of the import, command, list and export rows one as collectors
have them (make-corpus.py --collector: 12 tracks, label, catalog number, format, rating, added,
released, tags, ids, fields; a version 2 bundle); json, plist and bundle libraries then stop at
10 000 albums (issue 34: past that a file library says to migrate). `--before DIR` adds, to those
rows, the albumkit of an earlier release as one more side, alternating with ours, on a library it
made itself from the same corpus (with `--collector` the same bundle with a version 1 manifest:
a release before the whole album reads its core six and skips the other keys; `--before-whole`
for a release that reads whole albums: the same version 2 bundle). Its rows' ratio is
ours ÷ before. `list label:warp` (a query on label) is timed; a release that has no label field
is timed on `list artist:wires` instead, and the row says so.
`--sizes` and `--backends` narrow the import, command and export rows; `--exports` the kinds of
archive the export rows write.

Groups (for --only): import, commands, formats, export, list, hub, backends, covers, lookups, serve, sources, audio.
"""
import argparse, contextlib, csv, datetime, http.server, importlib.util, itertools, json, os, platform, random, re, shutil, statistics
import subprocess, sys, tempfile, threading, time, urllib.parse, uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# The tool each group runs besides `albumkit`.
TOOLS = {"hub": "albumkit-bench", "backends": "storage-bench"}
GROUPS = ["import", "commands", "formats", "export", "list", "hub", "backends", "covers", "lookups", "serve", "sources", "audio"]
BACKENDS = ["json", "plist", "bundle", "sqlite", "postgres"]
BEGIN = "<!-- make bench: generated from here to the end marker; edit outside the markers -->"
END = "<!-- make bench: end of generated part -->"

FULL = dict(runs=5, imports=[1000, 10000], command_runs=9, formats=1000, hub_events=200_000, hub_rounds=5,
            backend_albums=100_000, backend_ops={"json": 20, "plist": 10, "bundle": 10, "sqlite": 200, "postgres": 200},
            covers=1000, serve=dict(albums=100_000, seconds=30, changes=100), itunes_tracks=50_000, discogs_rows=100_000, matched=60)
QUICK = dict(runs=1, imports=[100, 300], command_runs=1, formats=100, hub_events=20_000, hub_rounds=2,
             backend_albums=1000, backend_ops={"json": 5, "plist": 5, "bundle": 5, "sqlite": 5, "postgres": 5},
             covers=100, serve=dict(albums=2000, seconds=2, changes=5), itunes_tracks=2000, discogs_rows=2000, matched=5)

serve_bench = importlib.util.module_from_spec(importlib.util.spec_from_file_location("serve_bench", os.path.join(HERE, "serve_bench.py")))
serve_bench.__spec__.loader.exec_module(serve_bench)
# The audio group: albums × tracks of tagged MP3 and FLAC with covers, in one .tar.gz.
AUDIO = dict(full=(500, 12), quick=(10, 8))
AUDIO_SCRIPT = os.path.join(ROOT, "Tests", "AudioFilesTests", "make-audio.py")

# `--scale`: the full set plus 100 000 albums (covers of ~600 bytes, as a large collection's
# thumbnails) in the import, command and export rows.
SCALE = dict(FULL, imports=[1000, 10000, 100_000])


def cover_bytes(count):
    """The size of each cover in the corpus bundle of `count` albums."""
    return 30_000 if count <= 10_000 else 600


# Every program runs as a user's would: with its output buffered. A shell that exports
# PYTHONUNBUFFERED=1 makes the Python references write each printed line with a system call of
# its own, which made the `list` reference 1.8× slower than a user's (0.27 s against 0.15 s).
os.environ.pop("PYTHONUNBUFFERED", None)

corpus = importlib.util.module_from_spec(importlib.util.spec_from_file_location("corpus", os.path.join(HERE, "make-corpus.py")))
corpus.__spec__.loader.exec_module(corpus)


class Failure(Exception):
    """A command of a row failed."""


def run(command, cwd=None, env=None, stdin=None, stdout=subprocess.DEVNULL, timeout=1800):
    """Runs `command`, returning its standard output (when captured); raises Failure on error."""
    try:
        result = subprocess.run(command, cwd=cwd, env=env, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure("%s took more than %d s" % (" ".join(map(str, command))[:120], timeout))
    if result.returncode != 0:
        tail = result.stderr.decode(errors="replace").strip().splitlines()[-3:]
        raise Failure("%s exited %d: %s" % (" ".join(map(str, command))[:120], result.returncode, " / ".join(tail)))
    return result.stdout


def measure(command, cwd=None, env=None, stdin_path=None, stdout=subprocess.DEVNULL):
    """One timed run: (wall seconds, peak resident KiB, standard output if captured)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        try:
            start = time.perf_counter()
            output = run(["/usr/bin/time", "-v", "-o", report.name] + list(command), cwd=cwd, env=env, stdin=stdin, stdout=stdout)
            elapsed = time.perf_counter() - start
        finally:
            if stdin_path:
                stdin.close()
        peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report.read())
    return elapsed, int(peak.group(1)) if peak else 0, output


class Side:
    """One side of a row: a command (or what makes it, for each run), what to prepare before each
    run (untimed), and its samples."""

    def __init__(self, label, command, prepare=None, cwd=None, env=None, stdin_path=None):
        self.label, self.command, self.prepare = label, command, prepare
        self.cwd, self.env, self.stdin_path = cwd, env, stdin_path
        self.samples = []

    def once(self):
        if self.prepare:
            self.prepare()
        os.sync()  # no run pays for writing back what an earlier one left dirty
        env = self.env() if callable(self.env) else self.env
        command = self.command() if callable(self.command) else self.command
        self.samples.append(measure(command, cwd=self.cwd, env=env, stdin_path=self.stdin_path)[:2])

    def median(self):
        return statistics.median(s[0] for s in self.samples)

    def peak_mib(self):
        return max(s[1] for s in self.samples) / 1024


class Aim:
    """What a row should reach: `text` as the table shows it, `test(ours, reference)` in seconds."""

    def __init__(self, text, test):
        self.text, self.test = text, test

    def met(self, ours, reference):
        return self.test(ours, reference)

    @staticmethod
    def ratio(bound):
        return Aim("≤ %.2f×" % bound, lambda ours, reference: ours <= bound * reference)

    @staticmethod
    def plus(seconds):
        return Aim("≤ reference + %.0f ms" % (seconds * 1000), lambda ours, reference: ours <= reference + seconds)

    @staticmethod
    def under(seconds):
        return Aim("< %.0f ms" % (seconds * 1000), lambda ours, reference: ours < seconds)


def command_aim(backend, command, collector=False):
    """Issue 15's aims for one command on a library: json within Python's `json.load` of the
    albums + 10 ms, databases under 30 ms, `list` no slower than Python listing the same rows.
    Issue 34's for collectors' albums: json (up to 10 000 albums) too under 30 ms."""
    if command == "list":
        return Aim.ratio(1.0) if backend in ("json", "sqlite") else None
    if backend == "json" and not collector:
        return Aim.plus(0.010)
    if backend in ("json", "sqlite", "postgres"):
        return Aim.under(0.030)
    return None


class Bench:
    def __init__(self, options):
        self.options = options
        self.sizes = QUICK if options.quick else SCALE if options.scale else FULL
        self.runs = options.runs or self.sizes["runs"]
        self.bin = os.path.abspath(options.bin)
        self.work = os.path.abspath(options.work)
        self.collector = options.collector
        self.before = os.path.abspath(options.before) if options.before else None
        self.before_whole = options.before_whole
        if options.sizes:
            self.sizes = dict(self.sizes, imports=[int(size) for size in options.sizes.split(",")])
        if options.runs:
            self.sizes = dict(self.sizes, command_runs=options.runs)
        self.backend_names = options.backends.split(",") if options.backends else BACKENDS
        self.exports = options.exports.split(",")
        self.corpus = os.path.join(self.work, "corpus-seed1-cover30000")
        self.scratch = os.path.join(self.work, "runs")
        self.tables = {group: [] for group in GROUPS}
        self.failures = []
        self.notes = []
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("ALBUMKIT_")}
        self.env.update(XDG_CONFIG_HOME=os.path.join(self.work, "no-config"), XDG_DATA_HOME=os.path.join(self.work, "no-data"))
        self.made = {}  # (count, backend) -> (library folder, env) made by a real import
        self.postgres = None  # the admin URL of the PostgreSQL server, once asked for
        self.databases = []

    # -- helpers -------------------------------------------------------------------------------

    def tool(self, name):
        return os.path.join(self.bin, name)

    def albumkit(self, library, *arguments, before=False):
        """The command line of our albumkit (or, `before`, the earlier release's) on `library`."""
        binary = os.path.join(self.before, "albumkit") if before else self.tool("albumkit")
        return [binary, "--library", library] + list(arguments)

    def sides(self):
        """Who runs in the import, command and export rows: ours, and the earlier release if asked."""
        return [False, True] if self.before else [False]

    def label(self, before):
        """How a side names its binary in a row."""
        return "before: `albumkit" if before else "`albumkit"

    def pairs(self):
        """(albums, backend) of the import, command and export rows: file libraries stop at
        10 000 collectors' albums."""
        return [(count, backend) for count in self.sizes["imports"] for backend in self.backend_names
                if not (self.collector and count > 10_000 and backend in ("json", "plist", "bundle"))]

    def label_query(self, library, env, before):
        """The query on label, or on artist for a release without a label field: (arguments, note)."""
        try:
            run(self.albumkit(library, "list", "label:warp", before=before), env=env)
            return ["list", "label:warp"], ""
        except Failure:
            return ["list", "artist:wires"], " (`artist:wires`: it has no label field)"

    def fresh(self, name):
        """An empty folder under the scratch folder (emptied if it existed)."""
        path = os.path.join(self.scratch, name)
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        return path

    def fresh_library(self, name, template=None):
        """A folder holding a new empty albumkit library, or a copy of `template`."""
        path = os.path.join(self.scratch, name)
        shutil.rmtree(path, ignore_errors=True)
        if template:
            shutil.copytree(template, path)
        else:
            run(self.albumkit(path, "init"), env=self.env)
        return path

    def bundle_corpus(self, count):
        """The corpus folder for a bundle of `count` albums (one per cover size)."""
        return os.path.join(self.work, "corpus-seed1-cover%d%s" % (cover_bytes(count), "-collector" if self.collector else ""))

    def bundle(self, count, kind):
        folder = self.bundle_corpus(count)
        run([sys.executable, os.path.join(HERE, "make-corpus.py"), "bundle", "--albums", str(count), "--cover-bytes",
             str(cover_bytes(count)), "--formats", kind, folder] + (["--collector"] if self.collector else []))
        return os.path.join(folder, "bundle-%d%s" % (count, "." + kind if kind else ""))

    def backend_env(self, backend, name):
        """The environment that selects `backend` for a library called `name` (a fresh database
        for postgres); None when the backend cannot run here."""
        env = dict(self.env, ALBUMKIT_STORAGE_BACKEND=backend)
        if backend != "postgres":
            return env
        if self.postgres is None:
            self.postgres = postgres_admin_url(self.notes) or ""
        if not self.postgres:
            return None
        database = "albumkit_bench_%d_%s" % (os.getpid(), re.sub(r"[^a-z0-9]", "_", name.lower()))
        psql(self.postgres, "DROP DATABASE IF EXISTS %s" % database)
        psql(self.postgres, "CREATE DATABASE %s" % database)
        if database not in self.databases:
            self.databases.append(database)
        return dict(env, ALBUMKIT_STORAGE_URL=self.postgres.rsplit("/", 1)[0] + "/" + database)

    def fresh_backend_library(self, name, backend, before=False):
        """A folder holding a new empty `backend` library; returns (folder, env), or None."""
        env = self.backend_env(backend, name)
        if env is None:
            return None
        path = os.path.join(self.scratch, name)
        shutil.rmtree(path, ignore_errors=True)
        run(self.albumkit(path, "init", before=before), env=env)
        return path, env

    def changed(self, library, env, before=False):
        """A few changes after the import, so the history holds it and more."""
        for arguments in [["add", "--title", "Bench Added", "--artist", "Bench"], ["update", "2", "--genre", "Changed"],
                          ["remove", "3"], ["undo"], ["select", "5"]]:
            run(self.albumkit(library, *arguments, before=before), env=env)

    def import_bundle(self, count, before):
        """The corpus bundle a side imports: for an earlier release, with a version 1 manifest
        (unless it reads whole albums, `--before-whole`)."""
        return self.bundle(count, "v1.tar.gz" if before and self.collector and not self.before_whole else "tar.gz")

    def made_name(self, backend, count, before):
        return "made-%s%s-%d" % ("before-" if before else "", backend, count)

    def made_library(self, count, backend, before=False):
        """A `count`-album `backend` library made by a real import of the corpus bundle and a
        few changes (the import group's last run, or made here): (folder, env), or None."""
        key = (count, backend, before)
        if key not in self.made:
            made = self.fresh_backend_library(self.made_name(backend, count, before), backend, before)
            if made is None:
                return None
            run(self.albumkit(made[0], "import", self.import_bundle(count, before), before=before), env=made[1])
            self.changed(*made, before=before)
            self.made[key] = made
        return self.made[key]

    def compare(self, group, title, ours, references, aim=None, count=None, runs=None, aim_on=None):
        """Runs `ours` and each reference alternately, `runs` times, and records one row per
        reference. `aim` (a ratio bound, or an ``Aim``) is judged on the row of the reference
        labelled `aim_on` (default: every row)."""
        aim = Aim.ratio(aim) if isinstance(aim, (int, float)) else aim
        for _ in range(runs or self.runs):
            for side in [ours] + references:
                side.once()
        for reference in references:
            ratio = ours.median() / reference.median()
            judged = aim if aim and (aim_on is None or aim_on == reference.label) else None
            self.tables[group].append(dict(
                title=title, count=count, ours=ours.label, ours_s=ours.median(), ours_mib=ours.peak_mib(),
                ref=reference.label, ref_s=reference.median(), ref_mib=reference.peak_mib(), ratio=ratio,
                aim=judged.text if judged else None, met=None if judged is None else judged.met(ours.median(), reference.median())))

    def guarded(self, group, title, body):
        try:
            body()
        except Failure as error:
            self.failures.append("%s: %s" % (title, error))
            self.tables[group].append(dict(title=title, failed=str(error)))

    # -- rows ----------------------------------------------------------------------------------

    def imports(self):
        """Every size and backend: `albumkit import` of the bundle with covers into a new library
        vs extracting it, and vs extracting it and then `sync` (our import is durable when it
        ends; theirs is not until the sync). The last run's library is kept for the command rows."""
        for count, backend in self.pairs():
            path = self.bundle(count, "tar.gz")
            def row(path=path, count=count, backend=backend):
                # One name per size: for postgres it names the database, which the command rows
                # read later, so sizes must not share one.
                if self.backend_env(backend, "lib-%s-%d" % (backend, count)) is None:
                    return self.tables["import"].append(dict(title="import %s-album .tar.gz, %s" % ("{:,}".format(count), backend),
                                                             failed="not available: no PostgreSQL server"))
                state = {}
                def side(before):
                    name = "lib-%s%s-%d" % ("before-" if before else "", backend, count)
                    def prepare():
                        state[before] = (os.path.join(self.scratch, name),) + self.fresh_backend_library(name, backend, before)[1:]
                    return Side("%s import` (%s)" % (self.label(before), backend),
                                self.albumkit(os.path.join(self.scratch, name), "import", self.import_bundle(count, before), before=before),
                                prepare=prepare, env=lambda: state[before][1])
                ours, *before = [side(before) for before in self.sides()]
                bsdtar = Side("`bsdtar -xzf`", ["bsdtar", "-xzf", path], prepare=lambda: self.fresh("out"), cwd=os.path.join(self.scratch, "out"))
                # Our import makes the covers durable before it commits; the plain extractor leaves
                # them in the page cache. This row puts the flush on the reference's side too.
                durable = Side("`bsdtar -xzf` then `sync`", ["sh", "-c", 'bsdtar -xzf "$0" && sync', path],
                               prepare=lambda: self.fresh("out"), cwd=os.path.join(self.scratch, "out"))
                # Issue 34's aim for collectors' albums is 1.5× at every size.
                aim = 1.0 if count <= 10_000 and not self.collector else 1.5
                self.compare("import", "import %s-album .tar.gz, %s" % ("{:,}".format(count), backend), ours, before + [bsdtar, durable],
                             aim=aim, count=count, aim_on="`bsdtar -xzf` then `sync`")
                for before in self.sides():
                    library, env = state[before]
                    listed = json.loads(run(self.albumkit(library, "list", "--json", before=before), env=env, stdout=subprocess.PIPE))
                    if len(listed["albums"]) != count:
                        raise Failure("the import left %d albums, not %d" % (len(listed["albums"]), count))
                    kept = os.path.join(self.scratch, self.made_name(backend, count, before))
                    shutil.rmtree(kept, ignore_errors=True)
                    os.rename(library, kept)
                    self.changed(kept, env, before)
                    self.made[(count, backend, before)] = (kept, env)
            self.guarded("import", "import %d .tar.gz (%s)" % (count, backend), row)

    def commands(self):
        """Every size and backend, on the library a real import made: one command's wall time
        against the process floor (`albumkit --version`) and against the standard tool reading the
        same albums (Python's `json.load` of the albums alone; `sqlite3` selecting the rows; `psql`
        connecting and asking `select 1`)."""
        reference = os.path.join(HERE, "command-reference.py")
        for count, backend in self.pairs():
            def row(count=count, backend=backend):
                made = self.made_library(count, backend)
                if made is None:
                    return self.tables["commands"].append(dict(title="%s, %s albums" % (backend, "{:,}".format(count)),
                                                               failed="not available: no PostgreSQL server"))
                library, env = made
                albums = os.path.join(self.scratch, "albums-%s-%d.json" % (backend, count))
                if backend == "json":  # the albums alone, as a plain list
                    run([sys.executable, reference, "extract", os.path.join(library, "library.json"), albums])
                floor = Side("`albumkit --version`", [self.tool("albumkit"), "--version"], env=env)
                python = {"json": Side("Python `json.load` of the albums", [sys.executable, reference, "json", albums]),
                          "sqlite": Side("Python `sqlite3` select of the rows", [sys.executable, reference, "sqlite", os.path.join(library, "library.sqlite")]),
                          # Any client's floor on PostgreSQL: start, log in (a server process is forked), one query.
                          "postgres": Side("`psql -c 'select 1'` on the database", ["psql", env.get("ALBUMKIT_STORAGE_URL", ""), "-Atc", "select 1"])}.get(backend)
                listing = {"json": Side("Python `json.load` + print (list-reference.py)", [sys.executable, os.path.join(HERE, "list-reference.py"), "json", os.path.join(library, "library.json")]),
                           "sqlite": Side("Python `sqlite3` select + print", [sys.executable, reference, "sqlite-list", os.path.join(library, "library.sqlite")])}.get(backend)
                before = self.made_library(count, backend, True) if self.before else None
                queries = {side: self.label_query(*(before if side else made), side) for side in self.sides()}
                size = "{:,}".format(count)
                # Every command issue 15 names and issue 34's query on label, each run as often as
                # the row runs it: each update changes the genre, the removes are undone, and the
                # undos redone.
                for command, arguments in [("show 5", lambda side: ["show", "5"]), ("current", lambda side: ["current"]),
                                           ("select", lambda side: ["select", "4"]),
                                           ("add", lambda side: ["add", "--yes", "--title", "Timed", "--artist", "Bench"]),
                                           ("update", lambda side, runs=itertools.count(): ["update", "2", "--genre", "Timed %d" % next(runs)]),
                                           ("remove", lambda side: ["remove", "3"]),
                                           ("undo", lambda side: ["undo"]), ("redo", lambda side: ["redo"]), ("list", lambda side: ["list"]),
                                           ("list label:warp", lambda side: queries[side][0])]:
                    def side(before_side):
                        folder, side_env = before if before_side else made
                        counter = itertools.count()  # each side's updates go through the same genres
                        line = (lambda: self.albumkit(folder, *(arguments(before_side, counter) if command == "update" else arguments(before_side)),
                                                      before=before_side))
                        return Side("%s %s`%s" % (self.label(before_side), command if command != "list label:warp" else " ".join(queries[before_side][0]),
                                                   queries[before_side][1] if command == "list label:warp" else ""), line, env=side_env)
                    ours, *earlier = [side(before_side) for before_side in self.sides()]
                    references = earlier + [floor] + ([listing] if command == "list" and listing else [python] if python and command not in ("list", "list label:warp") else [])
                    aim = Aim.under(0.050) if command == "list label:warp" else command_aim(backend, command, self.collector)
                    self.compare("commands", "%s on %s %s albums" % (command, size, backend), ours, references, aim=aim, count=count,
                                 runs=self.sizes["command_runs"], aim_on=references[-1].label if aim else None)
                    for one in [ours] + references:
                        one.samples = []
            self.guarded("commands", "commands %d (%s)" % (count, backend), row)

    def formats(self):
        count = self.sizes["formats"]
        references = {"tar.zst": ["tar", "--zstd", "-xf"], "tar.xz": ["tar", "-xJf"], "tar": ["tar", "-xf"], "zip": ["bsdtar", "-xf"]}
        for kind, tool in references.items():
            path = self.bundle(count, kind)
            def row(path=path, kind=kind, tool=tool):
                ours = Side("`albumkit import`", self.albumkit(os.path.join(self.scratch, "lib"), "import", path),
                            prepare=lambda: self.fresh_library("lib"), env=self.env)
                reference = Side("`%s`" % " ".join(tool), tool + [path], prepare=lambda: self.fresh("out"), cwd=os.path.join(self.scratch, "out"))
                self.compare("formats", "import %s-album .%s" % ("{:,}".format(count), kind), ours, [reference], count=count)
            self.guarded("formats", "import .%s" % kind, row)

    def export(self):
        """`albumkit export` of a library made by import vs `tar` of its folder, json and sqlite
        (every size asked with --sizes; else all but the smallest)."""
        sizes = self.sizes["imports"] if self.options.sizes else self.sizes["imports"][1:] or self.sizes["imports"]
        for count, backend in self.pairs():
            if count not in sizes or backend not in ("json", "sqlite"):
                continue
            def row(count=count, backend=backend):
                made = {before: self.made_library(count, backend, before) for before in self.sides()}
                out = os.path.join(self.scratch, "export-out")
                for ending, tool, aim in [("tar.gz", ["tar", "-czf"], 1.0), ("tar.zst", ["tar", "--zstd", "-cf"], 1.2)]:
                    if ending not in self.exports:
                        continue
                    target = os.path.join(out, "backup." + ending)
                    ours, *before = [Side("%s export` (%s)" % (self.label(side), backend),
                                          self.albumkit(made[side][0], "export", target, before=side),
                                          prepare=lambda: self.fresh("export-out"), env=made[side][1]) for side in self.sides()]
                    reference = Side("`%s`" % " ".join(tool), tool + [target, "-C", made[False][0], "."], prepare=lambda: self.fresh("export-out"))
                    self.compare("export", "export %s %s albums as .%s" % ("{:,}".format(count), backend, ending), ours, before + [reference],
                                 aim=aim, count=count, aim_on=reference.label)
            self.guarded("export", "export %d (%s)" % (count, backend), row)

    def listing(self):
        """`list` of each json and plist library made as users make one (an import of the corpus
        bundle with covers, then a few changes) vs Python loading the same file and printing the
        same table."""
        for count, kind in self.pairs():
            if kind not in ("json", "plist"):
                continue
            def row(count=count, kind=kind):
                made = {side: self.made_library(count, kind, side) for side in self.sides()}
                source = os.path.join(made[False][0], "library." + kind)
                ours, *before = [Side("%s list` (%s)" % (self.label(side), kind), self.albumkit(made[side][0], "list", before=side), env=made[side][1])
                                 for side in self.sides()]
                reference = Side("Python `%s.load` + print (list-reference.py)" % ("json" if kind == "json" else "plistlib"),
                                 [sys.executable, os.path.join(HERE, "list-reference.py"), kind, source])
                self.compare("list", "list %s-album %s library made by import" % ("{:,}".format(count), kind.upper()), ours, before + [reference],
                             aim=1.0 if kind == "json" else None, count=count, aim_on=reference.label)
            self.guarded("list", "list %d %s" % (count, kind), row)

    def hub(self):
        def row():
            output = run([self.tool("albumkit-bench"), "hub", "--events", str(self.sizes["hub_events"]),
                          "--rounds", str(self.sizes["hub_rounds"])], stdout=subprocess.PIPE)
            result = json.loads(output)
            for count, rate in sorted(result["hub"].items(), key=lambda item: int(item[0])):
                reference = result["notificationCenter"][count]
                self.tables["hub"].append(dict(subscribers=int(count), hub=rate, center=reference, ratio=rate / reference,
                                               met=rate / reference >= 10))
        self.guarded("hub", "hub", row)

    def backends(self):
        albums = self.sizes["backend_albums"]
        with postgres_database(self.notes) as url:
            for backend, operations in self.sizes["backend_ops"].items():
                def row(backend=backend, operations=operations):
                    if backend == "postgres" and not url:
                        return self.tables["backends"].append(dict(backend=backend, missing="no PostgreSQL server"))
                    folder = self.fresh("backend-" + backend)
                    env = dict(self.env, ALBUMKIT_BENCH_URL=url or "")
                    bundle = self.bundle(albums, "tar.gz")
                    _, peak, output = measure([self.tool("storage-bench"), backend, folder, bundle, str(albums), str(operations)],
                                              env=env, stdout=subprocess.PIPE)
                    # storage-bench prints one Markdown-like row: cells separated by " | ".
                    cells = [cell.strip() for cell in output.decode().strip().splitlines()[-1].split("|")]
                    names = ["backend", "albums", "fill_s", "open_list_s", "add_p50", "add_p99", "remove_p50", "remove_p99",
                             "update_p50", "update_p99", "size_mb"]
                    entry = dict(zip(names, cells), operations=operations, peak_mib=peak / 1024)
                    if backend == "postgres":
                        entry["size_mb"] = "%.1f" % (postgres_size(url) / 1e6)
                    self.tables["backends"].append(entry)
                self.guarded("backends", "backend " + backend, row)

    def covers(self):
        count = self.sizes["covers"]
        folder = self.bundle(count, "")
        with CoverServer(os.path.join(folder, "covers")) as server:
            def row():
                with open(os.path.join(folder, "albums.json")) as handle:
                    albums = json.load(handle)
                urls = []
                for album in albums:
                    album["coverUrl"] = "http://127.0.0.1:%d/%s" % (server.port, album["coverUrl"])
                    urls.append(album["coverUrl"])
                listed = os.path.join(self.scratch, "covers-albums.json")
                url_file = os.path.join(self.scratch, "covers-urls.txt")
                with open(listed, "w") as handle:
                    json.dump(albums, handle)
                with open(url_file, "w") as handle:
                    handle.write("\n".join(urls) + "\n")
                template = self.fresh_library("covers-template")
                run(self.albumkit(template, "import", listed), env=self.env)
                env = dict(self.env, ALBUMKIT_COVERS_CONCURRENCY="8")
                library = os.path.join(self.scratch, "covers-lib")
                ours = Side("`albumkit covers fetch`", self.albumkit(library, "covers", "fetch"),
                            prepare=lambda: self.fresh_library("covers-lib", template), env=env)
                reference = Side("`xargs -P 8 curl`", ["xargs", "-P", "8", "-n", "1", "curl", "-sSf", "-O"],
                                 prepare=lambda: self.fresh("covers-out"), cwd=os.path.join(self.scratch, "covers-out"), stdin_path=url_file)
                server.requests = 0
                self.compare("covers", "fetch %s covers, 8 at a time" % "{:,}".format(count), ours, [reference], aim=1.5, count=count)
                expected = count * self.runs * 2
                if server.requests != expected:
                    self.notes.append("covers: the server saw %d requests, not the %d expected" % (server.requests, expected))
                server.requests = 0
                again = Side("`albumkit covers fetch --all` (all stored)", self.albumkit(library, "covers", "fetch", "--all"), env=env)
                again.once()
                self.tables["covers"].append(dict(cache=True, seconds=again.median(), mib=again.peak_mib(), requests=server.requests))
                if server.requests:
                    raise Failure("the cache-hit re-run made %d requests" % server.requests)
            self.guarded("covers", "covers fetch", row)

    def lookups(self):
        """Issue 36: `covers fetch` of albums that name no cover, through the Cover Art Archive
        (and MusicBrainz) played by a local server answering in 50 ms as the services do."""
        count, matched = self.sizes["covers"], self.sizes["matched"]
        with LookupServer(delay=0.050) as server:
            config = os.path.join(self.scratch, "lookups-config.yaml")
            with open(config, "w") as handle:
                handle.write("covers: {fetchers: [coverartarchive], concurrency: 8}\n"
                             "lookups: {userAgent: \"albumkit-bench/1.0 ( bench@example.com )\"}\n"
                             "plugins:\n  musicbrainz: {baseURL: \"%s/ws/2\", requestsPerSecond: 1}\n"
                             "  coverartarchive: {baseURL: \"%s\"}\n" % (server.url, server.url))

            def albumkit(library, *arguments):
                return [self.tool("albumkit"), "--config", config, "--library", library] + list(arguments)

            def made(name, *paths, env=self.env):
                """A library made as a user makes one: `init`, imports, a few changes."""
                template = os.path.join(self.scratch, name)
                shutil.rmtree(template, ignore_errors=True)
                run(albumkit(template, "init"), env=env)
                for path in paths:
                    run(albumkit(template, "import", path), env=env)
                self.changed(template, env)
                return template

            def by_release(backend):
                # A library of the corpus bundle's albums with their covers, then collectors'
                # albums naming their MusicBrainz release (as a beets or Picard library does)
                # and no cover: only those are looked up. On json and on SQLite, whose peak
                # was over the aim when json's was not (BENCHMARKS.md, issue 36).
                env = dict(self.env, ALBUMKIT_STORAGE_BACKEND=backend)
                albums = corpus.albums(count, 3, collector=True)
                listed = os.path.join(self.scratch, "lookups-albums.json")
                with open(listed, "w") as handle:
                    json.dump(albums, handle)
                template = made("lookups-template-" + backend, self.bundle(count, "tar.gz"), listed, env=env)
                url_file = os.path.join(self.scratch, "lookups-urls.txt")
                with open(url_file, "w") as handle:
                    for album in albums:
                        mbid = album["ids"]["musicbrainz"]
                        handle.write("-o %s.png %s/release/%s/front-1200\n" % (mbid, server.url, mbid))
                ours = Side("`albumkit covers fetch` (coverartarchive, %s)" % backend, albumkit(os.path.join(self.scratch, "lookups-lib"), "covers", "fetch"),
                            prepare=lambda: self.fresh_library("lookups-lib", template), env=env)
                reference = Side("`xargs -P 8 curl -L`", ["xargs", "-P", "8", "-n", "3", "curl", "-sSfL"],
                                 prepare=lambda: self.fresh("lookups-out"), cwd=os.path.join(self.scratch, "lookups-out"), stdin_path=url_file)
                server.reset()
                self.compare("lookups", "%s albums by their MusicBrainz release (%s), 8 at a time" % ("{:,}".format(count), backend), ours, [reference],
                             aim=1.2, count=count)
                # Ours has one album more, the one `changed` added, which names no release: it
                # is matched by a search first.
                expected = {"caa": self.runs * (2 * count + 1), "image": self.runs * (2 * count + 1), "search": self.runs}
                if server.counts() != expected:
                    self.notes.append("lookups (%s): the server saw %s, not %s" % (backend, server.counts(), expected))
                listed = json.loads(run(albumkit(os.path.join(self.scratch, "lookups-lib"), "list", "--json"), env=env, stdout=subprocess.PIPE))
                stored = sum(album["cover"] == "stored" for album in listed["albums"])
                if stored != len(listed["albums"]):
                    raise Failure("covers fetch (%s) stored %d covers of %d" % (backend, stored, len(listed["albums"])))
                if ours.peak_mib() * 1.048576 > 64:
                    self.notes.append("lookups (%s): peak RSS %.0f MiB, over the 64 MB aim" % (backend, ours.peak_mib()))

            def by_match():
                # A Discogs collection export (its columns, no cover, no MusicBrainz id): every
                # album is first matched by a MusicBrainz search, one a second.
                path = os.path.join(self.scratch, "lookups-discogs.csv")
                with open(path, "w", newline="") as handle:
                    writer = csv.writer(handle)
                    writer.writerow(["Catalog#", "Artist", "Title", "Label", "Format", "Rating", "Released", "release_id", "CollectionFolder",
                                     "Date Added", "Collection Media Condition", "Collection Sleeve Condition", "Collection Notes"])
                    for index, album in enumerate(corpus.albums(matched, 4, collector=True)):
                        writer.writerow([album["catalogNumber"], album["artist"], album["title"], album["label"], album["format"], "",
                                         album["year"], 2_000_000 + index, "Uncategorized", album["added"].replace("T", " ").rstrip("Z"),
                                         "Very Good Plus (VG+)", "Very Good (VG)", ""])
                template = made("lookups-match-template", path)
                searches = matched + 1  # and the album `changed` added
                ours = Side("`albumkit covers fetch` (musicbrainz match, coverartarchive)",
                            albumkit(os.path.join(self.scratch, "lookups-match-lib"), "covers", "fetch"),
                            prepare=lambda: self.fresh_library("lookups-match-lib", template), env=self.env)
                gaps = []
                for _ in range(min(self.runs, 3)):
                    server.reset()
                    ours.once()
                    times = server.search_times()
                    if len(times) != searches:
                        raise Failure("MusicBrainz saw %d searches, not %d" % (len(times), searches))
                    gaps.append(min(b - a for a, b in zip(times, times[1:])) if len(times) > 1 else 1.0)
                # What the rate allows: the searches one a second from the first, then the last
                # album's search answer, front and image (three answers of 50 ms).
                floor = (searches - 1) / 1.0 + 3 * server.delay
                self.tables["lookups"].append(dict(
                    title="%d albums matched on MusicBrainz first (1 request/s)" % searches, count=searches, ours=ours.label,
                    ours_s=ours.median(), ours_mib=ours.peak_mib(), ref="what the rate allows: %d searches 1 s apart + 3 answers" % searches,
                    ref_s=floor, ref_mib=0, ratio=ours.median() / floor, aim="≤ 1.10× (the rate limit + 10 %)",
                    met=ours.median() <= 1.10 * floor))
                self.notes.append("lookups: the closest two MusicBrainz searches of a run came %.3f s apart (at most 1 a second)" % min(gaps))

            def memento():
                # What the lookup cache costs a SQLite library of `count` albums: the memento's
                # size, and a change and a read (each reads the memento; a change writes it)
                # with no answers, after `covers fetch` and after `enrich` too.
                albums = os.path.join(self.scratch, "lookups-albums.json")
                fast = os.path.join(self.scratch, "lookups-config-fast.yaml")
                with open(config) as source, open(fast, "w") as handle:
                    handle.write(source.read().replace("requestsPerSecond: 1}", "requestsPerSecond: 200}"))
                env = dict(self.env, ALBUMKIT_STORAGE_BACKEND="sqlite")
                library = os.path.join(self.scratch, "lookups-memento")
                shutil.rmtree(library, ignore_errors=True)
                run(albumkit(library, "init"), env=env)
                run(albumkit(library, "import", albums), env=env)
                self.changed(library, env)
                rows = []
                for step, command in [("no answers", None), ("after `covers fetch`", ["covers", "fetch"]),
                                      ("after `covers fetch` and `enrich`", ["enrich"])]:
                    if command:
                        run([self.tool("albumkit"), "--config", fast, "--library", library] + command, env=env)
                    def total(query):
                        found = subprocess.run(["sqlite3", os.path.join(library, "library.sqlite"), query], capture_output=True, text=True)
                        return int(found.stdout.strip() or 0) if found.returncode == 0 else None
                    size = total("SELECT length(state) FROM albumkit_state")
                    # The answers' own table (issue 36; an older albumkit keeps them in the memento).
                    table = total("SELECT coalesce(sum(length(key) + length(answer)), 0) FROM albumkit_lookups")
                    timed = {}
                    for name, arguments in [("select", ["select", "5"]), ("show", ["show", "5"])]:
                        side = Side(name, albumkit(library, *arguments), env=env)
                        for _ in range(max(self.sizes["command_runs"], 3)):
                            side.once()
                        timed[name] = side.median()
                    rows.append(dict(memento=True, step=step, bytes=size, table=table, change=timed["select"], read=timed["show"]))
                self.tables["lookups"] += rows

            for backend in ["json", "sqlite"]:
                self.guarded("lookups", "covers fetch by release (%s)" % backend, lambda: by_release(backend))
            self.guarded("lookups", "covers fetch by match", by_match)
            self.guarded("lookups", "the lookup cache in the memento", memento)

    def serve(self):
        with postgres_database(self.notes) as url:
            self.tables["serve"] = serve_bench.rows(self, url)
        self.failures += ["serve: %s" % row["failed"] for row in self.tables["serve"] if "failed" in row and "PostgreSQL" not in row["failed"]]

    def sources(self):
        """Issue 35: a real `import` (not a dry run) of a Discogs collection export and of an
        iTunes Library.xml into a new library, each against Python parsing the same file only."""
        rows, tracks = self.sizes["discogs_rows"], self.sizes["itunes_tracks"]
        run([sys.executable, os.path.join(HERE, "make-corpus.py"), "discogs", "--rows", str(rows), self.corpus])
        run([sys.executable, os.path.join(HERE, "make-corpus.py"), "itunes", "--tracks", str(tracks), self.corpus])
        files = [("discogs", os.path.join(self.corpus, "discogs-%d.csv" % rows), "a %s-row Discogs collection CSV" % "{:,}".format(rows),
                  "Python `csv.reader`", "import csv, sys; sum(1 for _ in csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))", rows),
                 ("itunes", os.path.join(self.corpus, "itunes-%d.xml" % tracks), "a %s-track iTunes Library.xml" % "{:,}".format(tracks),
                  "Python `plistlib.load`", "import plistlib, sys; plistlib.load(open(sys.argv[1], 'rb'))", None)]
        for name, path, what, reference_label, script, expected in files:
            def row():
                library = os.path.join(self.scratch, name + "-lib")
                ours = Side("`albumkit import`", self.albumkit(library, "import", path), prepare=lambda: self.fresh_library(name + "-lib"), env=self.env)
                reference = Side(reference_label, [sys.executable, "-c", script, path])
                self.compare("sources", "import " + what, ours, [reference], aim=2.0, count=rows if expected else tracks)
                listed = len(json.loads(run(self.albumkit(library, "list", "--json"), env=self.env, stdout=subprocess.PIPE))["albums"])
                if listed == 0 or (expected and listed != expected):
                    raise Failure("the import left %d albums%s" % (listed, ", not %d" % expected if expected else ""))
            self.guarded("sources", name, row)

    def audio(self):
        albums, tracks = AUDIO["quick" if self.options.quick else "full"]
        def row():
            archive = self.audio_corpus(albums, tracks)
            library = os.path.join(self.scratch, "audio-lib")
            ours = Side("`albumkit import`", self.albumkit(library, "import", archive), prepare=lambda: self.fresh_library("audio-lib"), env=self.env)
            # beets reads files, not archives: its job includes unpacking. No autotagging (-A),
            # no copying or writing tags: it reads the tags and fills its database.
            beets_home = os.path.join(self.scratch, "beets")
            beets = Side("`tar -xzf` + `beet import -A -q`", ["sh", "-c", 'tar -xzf "$0" -C "$1/music" && beet import -A -q "$1/music"', archive, beets_home],
                         prepare=lambda: self.fresh_beets(beets_home), env=dict(self.env, BEETSDIR=beets_home))
            title = "import %d albums × %d tracks (.tar.gz of tagged MP3 + FLAC, covers)" % (albums, tracks)
            self.compare("audio", title, ours, [beets], aim=1 / 20, count=albums)
            listed = json.loads(run(self.albumkit(library, "list", "--json"), env=self.env, stdout=subprocess.PIPE))["albums"]
            if len(listed) != albums or any(album["cover"] != "stored" for album in listed):
                raise Failure("the import left %d albums (%d with covers), not %d with covers" % (len(listed), sum(a["cover"] == "stored" for a in listed), albums))
            beets_albums = run(["beet", "ls", "-a"], env=dict(self.env, BEETSDIR=beets_home), stdout=subprocess.PIPE).decode().splitlines()
            if len(beets_albums) != albums:
                raise Failure("beets listed %d albums, not %d" % (len(beets_albums), albums))
        self.guarded("audio", "audio import", row)

    def fresh_beets(self, home):
        """An empty beets home (config, database) with an empty folder to unpack into."""
        shutil.rmtree(home, ignore_errors=True)
        os.makedirs(os.path.join(home, "music"))
        with open(os.path.join(home, "config.yaml"), "w") as config:
            config.write("directory: %s\nlibrary: %s\nplugins: []\nimport:\n  copy: no\n  move: no\n  write: no\n  resume: no\n  incremental: no\n"
                         % (os.path.join(home, "library"), os.path.join(home, "library.db")))

    def audio_corpus(self, albums, tracks):
        """The .tar.gz of the audio group (cached): even albums MP3, odd ones FLAC; each track
        embeds its album's 30 KB front cover, except every tenth album, which has a cover.jpg."""
        folder = os.path.join(self.work, "audio-%dx%d-v1" % (albums, tracks))
        archive = folder + ".tar.gz"
        if os.path.exists(archive):
            return archive
        shutil.rmtree(folder, ignore_errors=True)
        genres = ["Rock", "Jazz", "Pop", "Folk", "Electronic", "Classical"]
        plan = []
        for album in range(albums):
            artist, title = "Artist %03d" % (album % 97), "Album %04d" % album
            base = "%s/%s" % (artist, title)
            embedded = album % 10 != 0
            if not embedded:
                plan.append({"path": base + "/cover.jpg", "image": album})
            for track in range(1, tracks + 1):
                tags = {"album": title, "albumartist": artist, "artist": artist, "genre": genres[album % len(genres)],
                        "date": "%d-05-01" % (1960 + album % 60)}
                if album % 2 == 0:
                    tags["mbid"] = "00000000-0000-4000-8000-%012d" % album
                entry = {"path": "%s/%02d.%s" % (base, track, "mp3" if album % 2 == 0 else "flac"),
                         "format": "mp3" if album % 2 == 0 else "flac", "tags": tags}
                if embedded:
                    entry.update(cover=album, coverBytes=30000)
                plan.append(entry)
        plan_path = folder + "-plan.json"
        with open(plan_path, "w") as handle:
            json.dump(plan, handle)
        run([sys.executable, AUDIO_SCRIPT, os.path.join(self.work, "audio-cache"), folder, plan_path])
        run(["tar", "-czf", archive + ".tmp", "-C", folder, "."])
        os.replace(archive + ".tmp", archive)
        shutil.rmtree(folder)
        return archive

    # -- report --------------------------------------------------------------------------------

    def markdown(self, started, finished):
        lines = [BEGIN, "", "Written by `%s` on %s (%.0f s)." % ("make bench-quick" if self.options.quick else "make bench-scale" if self.options.scale else "make bench",
                                                                      started.strftime("%Y-%m-%d %H:%M UTC"), (finished - started).total_seconds())]
        lines += ["", "| machine | |", "|---|---|"] + ["| %s | %s |" % item for item in machine(self.bin)]
        lines += ["| load average (1 min) before / after | %s / %s |" % (self.load[0], os.getloadavg()[0]),
                  "| runs per row | %d (median shown; peak RSS is the largest of the runs) |" % self.runs]
        if self.collector:
            lines += ["| corpus | collectors' albums (make-corpus.py --collector: 12 tracks, label, catalog number, format, rating, "
                      "added, released, 3 tags, 2 ids, 5 fields, a cover each; version 2 bundle) |"]
        if self.before:
            version = run([os.path.join(self.before, "albumkit"), "--version"], stdout=subprocess.PIPE).decode().strip()
            made = ("imports the same version 2 bundle" if self.before_whole or not self.collector
                    else "imports the same bundle with a version 1 manifest, keeping its core six")
            lines += ["| before | %s (%s): %s |" % (self.before, version, made)]
        lines += ["", "Ratios are ours ÷ reference (lower is better); the hub's is ours ÷ reference in events per second (higher is better)."]
        lines += self.side_by_side("Import a bundle with covers into a new library vs extracting it (aim on `bsdtar -xzf` then `sync`: "
                                   + ("≤ 1.5× (issue 34)" if self.collector else "≤ 1.0× up to 10 000 albums, ≤ 1.5× at 100 000") + ")", "import", None)
        lines += self.side_by_side("Commands on a library made by `import` and a few changes (json: "
                                   + ("< 30 ms" if self.collector else "≤ Python `json.load` of the albums + 10 ms")
                                   + "; sqlite and postgres: < 30 ms; `list` ≤ 1.0× Python listing the same rows; `list label:warp` < 50 ms)", "commands", None)
        lines += self.side_by_side("Import in the other formats", "formats", "aim ≤ 1.25×")
        lines += self.side_by_side("Export the library vs `tar -c` of its folder", "export", "aim ≤ 1.0× for .tar.gz, ≤ 1.2× for .tar.zst")
        lines += self.side_by_side("Load and list a library vs Python", "list", "aim ≤ 1.0× for JSON")
        lines += self.hub_table()
        lines += self.backend_table()
        lines += self.side_by_side("`covers fetch` from a local HTTP server vs `xargs -P 8 curl`", "covers", "aim ≤ 1.5×")
        lines += self.side_by_side("`covers fetch` of albums that name no cover, from a local Cover Art Archive and MusicBrainz "
                                   "answering in 50 ms (issue 36: ≤ 1.2× `xargs -P 8 curl`, peak RSS ≤ 64 MB; matched first: "
                                   "the rate limit + 10 %)", "lookups", None)
        lines += self.side_by_side("Sources people already have: import vs Python parsing the same file", "sources", "aim ≤ 2.0×, peak RSS ≤ 64 MB")
        lines += self.side_by_side("Import a .tar.gz of audio files vs unpacking it and `beet import -A -q`", "audio", "aim ≤ 0.05×, i.e. 20× faster; peak RSS < 64 MB")
        lines += self.memory()
        lines += serve_bench.markdown(self.tables["serve"])
        if self.notes or self.failures:
            lines += ["", "Notes:"] + ["- " + note for note in self.notes] + ["- FAILED " + failure for failure in self.failures]
        return "\n".join(lines + ["", END]) + "\n"

    def side_by_side(self, heading, group, aim):
        lines = ["", "### " + heading + (" (%s)" % aim if aim else ""), "",
                 "| row | ours | median | peak RSS | reference | median | peak RSS | ratio | aim |",
                 "|---|---|---:|---:|---|---:|---:|---:|---|"]
        for row in self.tables[group]:
            if "failed" in row:
                lines.append("| %s | failed: %s | | | | | | | |" % (row["title"], row["failed"].replace("|", "/")))
            elif "memento" in row:
                lines.append("| the memento, %s | %s bytes (answers' table: %s) | select 5: %.3f s | | show 5: %.3f s | | | | |"
                             % (row["step"], "{:,}".format(row["bytes"]), "none" if row.get("table") is None else "{:,} bytes".format(row["table"]),
                                row["change"], row["read"]))
            elif "cache" in row:
                lines.append("| re-run, every cover stored | `covers fetch --all` | %.3f s | %.0f MiB | — | | | | %d requests (aim 0): %s |"
                             % (row["seconds"], row["mib"], row["requests"], "met" if row["requests"] == 0 else "NOT met"))
            else:
                verdict = "" if row["aim"] is None else ("met" if row["met"] else "NOT met") + " (%s)" % row["aim"]
                lines.append("| %s | %s | %.3f s | %.0f MiB | %s | %.3f s | %.0f MiB | %.2f× | %s |" % (
                    row["title"], row["ours"], row["ours_s"], row["ours_mib"], row["ref"], row["ref_s"], row["ref_mib"], row["ratio"], verdict))
        return lines if len(lines) > 5 else []

    def hub_table(self):
        if not self.tables["hub"]:
            return []
        lines = ["", "### Hub vs Foundation `NotificationCenter.post` (aim ≥ 10×)", "",
                 "Events delivered per second, one publishing thread, every subscriber counting (`albumkit-bench hub`, %s events, the best of %d rounds)."
                 % ("{:,}".format(self.sizes["hub_events"]), self.sizes["hub_rounds"]), "",
                 "| subscribers | `NotificationHub` | `NotificationCenter` | ratio | aim |", "|---:|---:|---:|---:|---|"]
        for row in self.tables["hub"]:
            if "failed" in row:
                lines.append("| failed: %s | | | | |" % row["failed"])
            else:
                lines.append("| %d | %s /s | %s /s | %.1f× | %s |" % (row["subscribers"], "{:,.0f}".format(row["hub"]), "{:,.0f}".format(row["center"]),
                                                                     row["ratio"], "met" if row["met"] else "NOT met"))
        return lines

    def backend_table(self):
        if not self.tables["backends"]:
            return []
        lines = ["", "### Storage backends at %s albums (`storage-bench`; aim < 5 ms per change for sqlite and postgres)" % "{:,}".format(self.sizes["backend_albums"]), "",
                 "| backend | import of the bundle with covers | open + list | add p50 / p99 | remove p50 / p99 | update p50 / p99 | changes timed | size on disk | peak RSS |",
                 "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for row in self.tables["backends"]:
            if "missing" in row or "failed" in row:
                lines.append("| %s | not available: %s | | | | | | | |" % (row.get("backend", row.get("title")), row.get("missing") or row.get("failed")))
            else:
                lines.append("| %s | %s s | %s s | %s / %s ms | %s / %s ms | %s / %s ms | %d each | %s MB | %.0f MiB |" % (
                    row["backend"], row["fill_s"], row["open_list_s"], row["add_p50"], row["add_p99"], row["remove_p50"], row["remove_p99"],
                    row["update_p50"], row["update_p99"], row["operations"], row["size_mb"], row["peak_mib"]))
        return lines

    def memory(self):
        rows = [(group, row) for group in ("import", "export") for row in self.tables[group]
                if "count" in row and row.get("ref") in ("`bsdtar -xzf`", "`tar -czf`", "`tar --zstd -cf`")]
        if not rows:
            return []
        lines = ["", "### Peak memory of `albumkit import` and `export` (aim: below 64 MB at every size)", ""]
        lines += ["- %s: peak RSS %.1f MiB — %s" % (row["title"], row["ours_mib"], "met" if row["ours_mib"] * 1.048576 < 64 else "NOT met")
                  for group, row in rows]
        return lines

    def run(self):
        started = datetime.datetime.now(datetime.timezone.utc)
        self.load = os.getloadavg()
        chosen = self.options.only.split(",") if self.options.only else GROUPS
        # Checked before an hour of rows, not when the group that needs the tool comes.
        tools = ["albumkit"] + [tool for group, tool in TOOLS.items() if group in chosen]
        missing = [self.tool(tool) for tool in tools if not os.access(self.tool(tool), os.X_OK)]
        if self.before and not os.access(os.path.join(self.before, "albumkit"), os.X_OK):
            missing.append(os.path.join(self.before, "albumkit"))
        if missing:
            print("bench: not found: %s (make bench-tools builds them; --bin names their folder)" % ", ".join(missing), file=sys.stderr)
            return 2
        shutil.rmtree(self.scratch, ignore_errors=True)
        os.makedirs(self.scratch)
        for group in GROUPS:
            if group in chosen:
                print("bench: %s …" % group, file=sys.stderr, flush=True)
                {"import": self.imports, "commands": self.commands, "formats": self.formats, "export": self.export, "list": self.listing,
                 "hub": self.hub, "backends": self.backends, "covers": self.covers, "lookups": self.lookups, "serve": self.serve, "sources": self.sources,
                 "audio": self.audio}[group]()
        shutil.rmtree(self.scratch, ignore_errors=True)
        for database in self.databases:
            psql(self.postgres, "DROP DATABASE IF EXISTS %s" % database)
        text = self.markdown(started, datetime.datetime.now(datetime.timezone.utc))
        write_report(self.options.output, text)
        with open(os.path.join(self.work, "results.json"), "w") as raw:
            json.dump(self.tables, raw, indent=1)
        print(text)
        for failure in self.failures:
            print("bench: FAILED " + failure, file=sys.stderr)
        return 1 if self.failures else 0


def machine(binaries):
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.processor())
    memory = next((line.split()[1] for line in open("/proc/meminfo") if line.startswith("MemTotal")), "0")
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
    return [("CPU", model), ("cores", str(os.cpu_count())), ("memory", "%.0f GiB" % (int(memory) / 2**20)),
            ("system", "%s %s" % (platform.system(), platform.release())), ("Swift", swift[0] if swift else "?"),
            ("Python (the references)", "%s %s" % (sys.executable, platform.python_version())),
            ("binaries", os.path.relpath(binaries, ROOT) if binaries.startswith(ROOT + os.sep) else binaries), ("commit", commit + (" with uncommitted changes" if dirty else ""))]


def write_report(path, text):
    """Replaces the generated part of `path` (between the markers), keeping the rest."""
    old = open(path).read() if os.path.exists(path) else "# Benchmarks\n\n"
    if BEGIN in old and END in old:
        new = old[:old.index(BEGIN)] + text.rstrip("\n") + old[old.index(END) + len(END):]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    with open(path + ".tmp", "w") as handle:
        handle.write(new)
    os.replace(path + ".tmp", path)


def postgres_admin_url(notes):
    """The superuser URL of the project's test server if it is running; None otherwise (the
    command rows do not start one: `make postgres` does)."""
    script = os.path.join(ROOT, "scripts", "postgres-server.sh")
    try:
        if subprocess.run([script, "status"], capture_output=True).returncode != 0:
            notes.append("postgres: the test server is not running (make postgres); its rows were left out")
            return None
        return subprocess.run([script, "url"], capture_output=True, text=True, check=True).stdout.strip()
    except (subprocess.SubprocessError, OSError) as error:
        notes.append("postgres: not available (%s)" % str(error)[:200])
        return None


@contextlib.contextmanager
def postgres_database(notes):
    """A fresh database on the project's test server (started if it is not running, and then
    stopped again); yields its URL, or None when PostgreSQL is not available."""
    script = os.path.join(ROOT, "scripts", "postgres-server.sh")
    started = False
    try:
        if subprocess.run([script, "status"], capture_output=True).returncode != 0:
            subprocess.run([script, "start"], capture_output=True, check=True, timeout=300)
            started = True
        admin = subprocess.run([script, "url"], capture_output=True, text=True, check=True).stdout.strip()
        name = "albumkit_bench_%d" % os.getpid()
        psql(admin, "CREATE DATABASE %s" % name)
    except (subprocess.SubprocessError, OSError) as error:
        notes.append("postgres: not available (%s)" % str(error)[:200])
        yield None
        return
    try:
        yield admin.rsplit("/", 1)[0] + "/" + name
    finally:
        psql(admin, "DROP DATABASE IF EXISTS %s" % name)
        if started:
            subprocess.run([script, "stop"], capture_output=True)


def psql(url, sql):
    return subprocess.run(["psql", "-qAt", url, "-c", sql], capture_output=True, text=True, check=True, timeout=120).stdout.strip()


def postgres_size(url):
    admin = url.rsplit("/", 1)[0] + "/postgres"
    return int(psql(admin, "SELECT pg_database_size('%s')" % url.rsplit("/", 1)[1]))


class LoopbackServer:
    """An HTTP/1.1 server on 127.0.0.1 (a free port) answering with `handler` in threads of this
    process, from the start of a `with` block to its end."""

    def listen(self, handler):
        class Server(http.server.ThreadingHTTPServer):
            request_queue_size = 64
            daemon_threads = True

            def handle_error(self, request, client_address):
                # A client that ends with its keep-alive connection open resets it: not an error.
                if not isinstance(sys.exc_info()[1], ConnectionError):
                    super().handle_error(request, client_address)

        self.lock = threading.Lock()
        self.server = Server(("127.0.0.1", 0), handler)
        self.port = self.server.server_address[1]
        self.url = "http://127.0.0.1:%d" % self.port

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exception):
        self.server.shutdown()
        self.server.server_close()


class CoverServer(LoopbackServer):
    """A static server for the covers row; counts the requests it answers."""

    def __init__(self, folder):
        owner = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def __init__(self, *arguments, **keywords):
                super().__init__(*arguments, directory=folder, **keywords)

            def do_GET(self):
                with owner.lock:
                    owner.requests += 1
                # The URL path is /covers/<name>; the folder served is covers/ itself.
                self.path = self.path.replace("/covers/", "/", 1)
                super().do_GET()

            def log_message(self, *arguments):
                pass

        self.requests = 0
        self.listen(Handler)


class LookupServer(LoopbackServer):
    """The Cover Art Archive and MusicBrainz as a local HTTP/1.1 server on 127.0.0.1, each
    answer `delay` seconds after its request, as the services answer: a release's
    `/release/<mbid>/front-1200` is a 307 to where the image lies (archive.org's role), whose
    bytes are a PNG of 600×600 pixels told apart by the MBID after its end;
    `/ws/2/release?query=…` finds one release at score 100, its MBID derived from the query.
    Counts the requests of each kind and when each search came."""

    # A real release lookup answer (`inc=labels+recordings+release-groups+genres`), its MBID
    # replaced by the one asked for.
    FIXTURE_ID = "b84ee12a-09ef-421b-82de-0441a926375b"

    def __init__(self, delay):
        owner = self
        self.delay = delay
        with open(os.path.join(ROOT, "Tests", "Fixtures", "real", "musicbrainz", "release.json")) as handle:
            self.release = handle.read()
        # About 90 kB, as a front-1200 thumbnail weighs: 50 rows of noise, the rest black.
        noise = random.Random(36)
        self.image = corpus.png(600, 600, [noise.randbytes(1800) if row < 50 else bytes(1800) for row in range(600)])

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                time.sleep(owner.delay)
                path, _, query = self.path.partition("?")
                parts = path.strip("/").split("/")
                if len(parts) == 3 and parts[0] == "release" and parts[2] == "front-1200":
                    owner.count("caa")
                    return self.answer(307, b"See: /images/%s.png\n" % parts[1].encode(), "text/plain",
                                       location="%s/images/mbid-%s-1_thumb1200.png" % (owner.url, parts[1]))
                if len(parts) == 2 and parts[0] == "images":
                    owner.count("image")
                    return self.answer(200, owner.image + parts[1].encode(), "image/png")
                if len(parts) == 4 and parts[:3] == ["ws", "2", "release"]:
                    owner.count("release")
                    return self.answer(200, owner.release.replace(LookupServer.FIXTURE_ID, parts[3]).encode(), "application/json")
                if parts == ["ws", "2", "release"]:
                    owner.count("search")
                    text = urllib.parse.parse_qs(query).get("query", [""])[0]
                    mbid = str(uuid.uuid5(uuid.NAMESPACE_URL, "release " + text))
                    found = {"created": "2026-11-27T12:00:00.000Z", "count": 1, "offset": 0, "releases": [{
                        "id": mbid, "score": 100, "title": text, "status": "Official",
                        "artist-credit": [{"name": "Artist", "artist": {"id": str(uuid.uuid5(uuid.NAMESPACE_URL, "artist " + text)), "name": "Artist"}}],
                        "release-group": {"id": str(uuid.uuid5(uuid.NAMESPACE_URL, "group " + text)), "primary-type": "Album"}}]}
                    return self.answer(200, json.dumps(found).encode(), "application/json")
                self.answer(404, b'{"error":"Not Found"}', "application/json")

            def answer(self, status, body, kind, location=None):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                if location:
                    self.send_header("Location", location)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.listen(Handler)
        self.reset()

    def count(self, kind):
        with self.lock:
            self.requests[kind] = self.requests.get(kind, 0) + 1
            if kind == "search":
                self.searches.append(time.monotonic())

    def reset(self):
        with self.lock:
            self.requests, self.searches = {}, []

    def counts(self):
        with self.lock:
            return dict(self.requests)

    def search_times(self):
        with self.lock:
            return list(self.searches)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, one run each (CI smoke test)")
    parser.add_argument("--scale", action="store_true", help="add 100 000-album libraries to the import, command and export rows")
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"), help="folder with albumkit, albumkit-bench, storage-bench")
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "albumkit-bench"), help="corpus cache and scratch folder")
    parser.add_argument("--output", help="the Markdown file (default: BENCHMARKS.md, or WORK/BENCHMARKS-quick.md with --quick)")
    parser.add_argument("--runs", type=int, help="runs per row (default 5, or 1 with --quick)")
    parser.add_argument("--only", help="comma-separated groups: " + ", ".join(GROUPS))
    parser.add_argument("--collector", action="store_true", help="albums as collectors have them (issue 34) in the import, command, list and export rows")
    parser.add_argument("--before", help="folder with the albumkit of an earlier release, run as one more side of those rows")
    parser.add_argument("--before-whole", action="store_true",
                        help="the earlier release reads whole albums: it imports the same version 2 bundle as ours")
    parser.add_argument("--sizes", help="comma-separated album counts of the import, command and export rows")
    parser.add_argument("--backends", help="comma-separated backends of those rows: " + ", ".join(BACKENDS))
    parser.add_argument("--exports", default="tar.gz,tar.zst", help="the archives the export rows write")
    options = parser.parse_args()
    if not options.output:
        options.output = os.path.join(options.work, "BENCHMARKS-quick.md") if options.quick else os.path.join(ROOT, "BENCHMARKS.md")
    if not os.path.exists("/usr/bin/time"):
        parser.error("/usr/bin/time is missing: run scripts/install-deps.sh (Debian package 'time')")
    sys.exit(Bench(options).run())


if __name__ == "__main__":
    main()
