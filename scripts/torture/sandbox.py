"""A library of one backend in a folder of its own, and the `albumkit` binary run on it.

Every run gets a fresh copy of a template library: a folder copied for json and sqlite, a new
PostgreSQL database made with CREATE DATABASE … TEMPLATE for postgres (psql, from the server's
URL in ALBUMKIT_TEST_POSTGRES_URL). HOME and the XDG folders sit inside the sandbox, and the
configuration file is the one `albumkit migrate` rewrites."""
import os
import re
import shutil
import subprocess
import time
import urllib.parse

BACKENDS = ["json", "sqlite", "postgres"]


class Result:
    """What one finished run printed and returned."""

    def __init__(self, status, out, err, seconds):
        self.status, self.out, self.err, self.seconds = status, out, err, seconds

    @property
    def error_lines(self):
        return [line for line in self.err.splitlines() if line.lower().startswith("error:")]


class Postgres:
    """Databases on the test server: made from a template, dropped when done."""

    def __init__(self, url):
        self.url = url
        self.prefix = "torture_%d" % os.getpid()

    def url_of(self, database):
        parts = urllib.parse.urlsplit(self.url)
        return urllib.parse.urlunsplit(parts._replace(path="/" + database))

    def sql(self, statement):
        quiet = dict(os.environ, PGOPTIONS="-c client_min_messages=warning")  # no NOTICE for IF EXISTS
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", self.url, "-c", statement],
                       check=True, stdout=subprocess.DEVNULL, env=quiet)

    def create(self, name, template=None):
        self.drop(name)
        self.sql('CREATE DATABASE "%s"%s' % (name, ' TEMPLATE "%s"' % template if template else ""))
        return self.url_of(name)

    def drop(self, name):
        self.sql('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % name)


class Sandbox:
    """FOLDER/lib (the library folder), FOLDER/out (exports), HOME and XDG folders in FOLDER."""

    def __init__(self, folder, binary, backend, database=None, postgres=None):
        self.folder, self.binary, self.initial_backend = folder, binary, backend
        self.database, self.postgres = database, postgres
        self.library = os.path.join(folder, "lib")
        self.out = os.path.join(folder, "out")
        self.config = os.path.join(folder, "config", "albumkit", "config.yaml")
        self.env = {
            "HOME": folder, "XDG_DATA_HOME": os.path.join(folder, "data"), "XDG_CONFIG_HOME": os.path.join(folder, "config"),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
        }

    @classmethod
    def fresh(cls, folder, binary, backend, postgres=None, database=None):
        """An empty sandbox whose configuration selects BACKEND (postgres: a new DATABASE)."""
        shutil.rmtree(folder, ignore_errors=True)
        box = cls(folder, binary, backend, database, postgres)
        for path in (box.library, box.out, os.path.dirname(box.config)):
            os.makedirs(path)
        url = postgres.create(database) if backend == "postgres" else None
        box.write_config(backend, url)
        return box

    def clone(self, folder, database=None):
        """A new sandbox holding a copy of this one's library (postgres: in DATABASE)."""
        shutil.rmtree(folder, ignore_errors=True)
        box = Sandbox(folder, self.binary, self.initial_backend, database, self.postgres)
        shutil.copytree(self.folder, folder, symlinks=True)
        url = None
        if self.initial_backend == "postgres":
            url = self.postgres.create(database, template=self.database)
            marker = os.path.join(box.library, "albumkit-library.yaml")
            if os.path.exists(marker):
                with open(marker, encoding="utf-8") as handle:
                    text = handle.read()
                with open(marker, "w", encoding="utf-8") as handle:
                    handle.write(text.replace("/" + self.database, "/" + database))
        box.write_config(self.initial_backend, url)
        return box

    def write_config(self, backend, url=None):
        lines = ["library: %s" % self.library, "storage:", "  backend: %s" % backend]
        if url:
            lines += ["  postgres:", "    url: %s" % url]
        lines += ["covers:", "  timeoutSeconds: 10"]
        with open(self.config, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")

    def backend(self):
        """The backend the configuration file selects now (migrate rewrites it)."""
        with open(self.config, encoding="utf-8") as handle:
            match = re.search(r"^\s+backend:\s*(\S+)", handle.read(), re.MULTILINE)
        return match.group(1) if match else None

    def start(self, *args):
        return subprocess.Popen([self.binary, *args], cwd=self.folder, env=self.env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def run(self, *args, timeout=900):
        started = time.monotonic()
        process = self.start(*args)
        out, err = process.communicate(timeout=timeout)
        return Result(process.returncode, out, err, time.monotonic() - started)

    def must(self, *args):
        result = self.run(*args)
        if result.status != 0:
            raise RuntimeError("albumkit %s failed (%d): %s" % (" ".join(args), result.status, result.err.strip()[-800:]))
        return result

    def remove(self):
        if self.database:
            self.postgres.drop(self.database)
        shutil.rmtree(self.folder, ignore_errors=True)
