"""The harness of the serve tests: the real `albumkit` binary in a sandbox of its own
(HOME and XDG folders inside a temporary folder), `albumkit serve` started on a free
loopback port and stopped with SIGTERM, and a small HTTP client."""
import http.client
import http.server
import json
import os
import re
import signal
import subprocess
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("ALBUMKIT_BIN", ROOT / ".build" / "debug" / "albumkit"))
STARTER = ROOT / "Bundles" / "starter.tar.gz"
ARTIFACTS = Path(os.environ.get("ALBUMKIT_TEST_ARTIFACTS", ROOT / ".build" / "test-artifacts" / "serve"))


class Server:
    """A running `albumkit serve`."""

    def __init__(self, process, url):
        self.process = process
        self.url = url.rstrip("/")
        parsed = urllib.parse.urlparse(url)
        self.host, self.port = parsed.hostname, parsed.port

    def request(self, method, path, body=None, headers=None, json_body=None):
        """(status, headers, body bytes) of one request on a fresh connection."""
        headers = dict(headers or {})
        if json_body is not None:
            body = json.dumps(json_body).encode()
            headers.setdefault("Content-Type", "application/json")
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def json(self, method, path, json_body=None, headers=None, expect=None):
        """The decoded JSON answer; checks the status when `expect` is given."""
        status, _, body = self.request(method, path, json_body=json_body, headers=headers)
        answer = json.loads(body) if body else None
        if expect is not None:
            assert status == expect, f"{method} {path}: {status} {body[:400]!r}"
        return status, answer

    def stop(self, sig=signal.SIGTERM, timeout=30):
        """Signals the server and returns (exit status, stdout, stderr)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            out, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, err = self.process.communicate()
            raise AssertionError(f"serve did not stop within {timeout}s after {sig!r}")
        return self.process.returncode, out, err


class LocalService:
    """A service played on 127.0.0.1 (a free port), answering from a thread of its own: each
    GET goes to `answer(path, query)`, which returns (status, content type, body bytes).
    An answer may wait for `release`, which closing sets."""

    def __init__(self, answer):
        self.release = threading.Event()
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                status, kind, body = answer(url.path, urllib.parse.parse_qs(url.query))
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.release.set()
        self.server.shutdown()


class Sandbox:
    """A folder that is HOME, XDG_DATA_HOME and XDG_CONFIG_HOME of every run."""

    def __init__(self, folder: Path, extra_env=None):
        self.folder = folder
        self.env = {
            "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config"),
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        }
        self.env.update(extra_env or {})
        self.servers = []

    @property
    def library(self) -> Path:
        return self.folder / "data" / "albumkit"

    def run(self, *args, check=True, env=None):
        result = subprocess.run(
            [str(BINARY), *args], cwd=self.folder, env={**self.env, **(env or {})}, capture_output=True, text=True, timeout=120)
        if check:
            assert result.returncode == 0, f"albumkit {' '.join(args)} failed: {result.stderr}"
        return result

    def albums(self):
        """`albumkit list --json`: the library as the command sees it."""
        return json.loads(self.run("list", "--json").stdout)

    def start(self, *args, env=None, listen="127.0.0.1:0"):
        """Starts `albumkit serve` and waits until it says where it listens."""
        command = [str(BINARY), "serve", *(["--listen", listen] if listen else []), *args]
        process = subprocess.Popen(
            command, cwd=self.folder, env={**self.env, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = read_line(process, timeout=60)
        match = re.search(r"at (http://\S+/)", line or "")
        if not match:
            process.kill()
            _, err = process.communicate()
            raise AssertionError(f"serve did not start: {line!r} {err}")
        server = Server(process, match.group(1))
        self.servers.append(server)
        return server

    def close(self):
        for server in self.servers:
            if server.process.poll() is None:
                server.process.kill()
                server.process.communicate()


def read_line(process, timeout):
    """The first line `process` writes, or None when it ends or `timeout` passes."""
    found = []
    reader = threading.Thread(target=lambda: found.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return found[0] if found else None


class EventClient:
    """An `/api/events` client on a thread: every event it receives, with when."""

    def __init__(self, server, token=None):
        self.events = []
        self.condition = threading.Condition()
        self.connection = http.client.HTTPConnection(server.host, server.port, timeout=60)
        path = "/api/events" + (f"?token={token}" if token else "")
        self.connection.request("GET", path)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type").startswith("text/event-stream")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("data: "):
                    with self.condition:
                        self.events.append((time.monotonic(), json.loads(line[6:])))
                        self.condition.notify_all()
        except Exception:
            pass

    def wait_for(self, predicate, timeout=10):
        """The first event received that `predicate` accepts, waiting up to `timeout`."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                for _, event in self.events:
                    if predicate(event):
                        return event
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no such event within {timeout}s; got {[e['event'] for _, e in self.events]}")
                self.condition.wait(remaining)

    def close(self):
        self.connection.close()


@pytest.fixture
def sandbox(tmp_path):
    assert BINARY.exists(), f"build albumkit first: {BINARY} is missing"
    box = Sandbox(tmp_path)
    yield box
    box.close()


@pytest.fixture
def starter(sandbox):
    """A sandbox whose library holds the starter albums, and a server on it."""
    sandbox.run("init", "--starter")
    return sandbox, sandbox.start()


@pytest.fixture
def postgres_url():
    """A fresh database on the test server (ALBUMKIT_TEST_POSTGRES_URL), or a skip."""
    base = os.environ.get("ALBUMKIT_TEST_POSTGRES_URL")
    if not base:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but ALBUMKIT_TEST_POSTGRES_URL is not set: .ci/run must start scripts/postgres-server.sh")
        pytest.skip("PostgreSQL tests skipped: set ALBUMKIT_TEST_POSTGRES_URL (scripts/postgres-server.sh start prints it)")
    name = f"serve_{os.getpid()}_{int(time.time() * 1000) % 10**9}"
    subprocess.run(["psql", base, "-q", "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    parsed = urllib.parse.urlparse(base)
    yield urllib.parse.urlunparse(parsed._replace(path="/" + name))
    subprocess.run(["psql", base, "-q", "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True)
