#!/usr/bin/env python3
"""Writes the order in which the release `albumkit` lays out its functions (`make symbol-order`).

    scripts/symbol-order/make-order.py BINARY OUTPUT

A process maps the binary's code a 64 KiB window at a time around each page it runs (the
kernel's fault-around), so code that runs together should lie together: scattered, the 1.3 MB
of functions an import runs kept 15 MB of the binary resident; laid out first, 5 MB. This runs
the commands users run most — on a JSON and a SQLite library: init, list, show, add, update,
remove, move, undo, redo, select, import, export, restore, verify, migrate, covers status,
config show — under valgrind's callgrind (on a copy without debug information, which its reader
does not take), and writes every function of the binary they ran — an import's first, then each
command's in turn, in the order the profile names them — one mangled name a line: what
`ld.lld --symbol-ordering-file` takes (the Swift code is built with a section per function,
`-function-sections`, so that each can be placed). Measured with the binary read from disk
(`drop_caches`), not as a build left it in the page cache, which maps up to 2 MB more. Functions not listed
keep their place after the listed ones, so an outdated list costs memory, never correctness.
"""
import os, re, shutil, subprocess, sys, tempfile


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, output = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    for tool in ["valgrind", "objcopy", "nm"]:
        if shutil.which(tool) is None:
            sys.exit("make-order.py: %s is needed (Debian: apt install valgrind binutils)" % tool)
    with tempfile.TemporaryDirectory(prefix="albumkit-order-") as work:
        plain = os.path.join(work, "albumkit")
        subprocess.run(["objcopy", "--strip-debug", binary, plain], check=True)
        defined = set(line.split()[-1] for line in subprocess.run(
            ["nm", "--defined-only", plain], capture_output=True, text=True, check=True).stdout.splitlines())
        profiles = []
        for number, (arguments, backend) in enumerate(commands(work)):
            profile = os.path.join(work, "callgrind.%d" % number)
            env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), XDG_DATA_HOME=os.path.join(work, "data"),
                       ALBUMKIT_STORAGE_BACKEND=backend)
            run = subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", "--callgrind-out-file=" + profile, plain] + arguments,
                                 cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if run.returncode != 0:
                sys.exit("make-order.py: albumkit %s failed:\n%s" % (" ".join(arguments), run.stderr[-2000:]))
            profiles.append((arguments, functions(profile)))
            print("profiled albumkit %s" % " ".join(arguments)[:70], flush=True)
        # Import first — the command whose memory matters most — then the rest in the order
        # they ran, each function where a command first ran it.
        profiles.sort(key=lambda profile: "import" not in profile[0])
        order, seen = [], set()
        for _, names in profiles:
            for name in names:
                # C++ (the Swift runtime) is built with a section per file, not per function:
                # ordering one of its functions would bring its whole file's code along.
                if name in defined and not name.startswith("_Z") and name not in seen:
                    seen.add(name)
                    order.append(name)
    with open(output + ".part", "w") as out:
        out.write("".join(name + "\n" for name in order))
    os.replace(output + ".part", output)
    print("wrote %d functions to %s" % (len(order), output))


def commands(work):
    """The commands profiled, each with the backend it runs on, in order."""
    json_library, sqlite_library = os.path.join(work, "json"), os.path.join(work, "sqlite")
    bundle = os.path.join(work, "backup.tar.gz")
    steps = [(["--version"], "json"), (["--help"], "json")]
    for library, backend in [(json_library, "json"), (sqlite_library, "sqlite")]:
        def on(*arguments):
            return (["--library", library] + list(arguments), backend)
        steps += [on("init", "--starter"), on("list"), on("list", "--json"), on("show", "1"), on("current"),
                  on("add", "--title", "Low", "--artist", "David Bowie", "--year", "1977"), on("update", "1", "--genre", "Art rock"),
                  on("remove", "2"), on("undo"), on("redo"), on("move", "1", "--to", "3"), on("select", "2"),
                  on("covers", "status"), on("verify")]
        if backend == "json":
            steps += [on("export", bundle), on("export", os.path.join(work, "backup.tar.zst")), on("export", os.path.join(work, "albums.json"))]
    fresh = lambda name, backend: (["--library", os.path.join(work, name)], backend)
    for name, backend in [("imported-json", "json"), ("imported-sqlite", "sqlite")]:
        library, _ = fresh(name, backend)
        steps += [(library + ["init"], backend), (library + ["import", bundle], backend),
                  (library + ["import", "--dry-run", os.path.join(work, "albums.json")], backend)]
    restored, _ = fresh("restored", "json")
    steps += [(restored + ["init"], "json"), (restored + ["restore", bundle], "json"), (restored + ["verify", bundle], "json"),
              (restored + ["migrate", "--to", "sqlite"], "json"), (restored + ["config", "show"], "sqlite"),
              (restored + ["pipeline", "show"], "sqlite")]
    return steps


def functions(profile):
    """The names of the functions a callgrind profile ran, in the order it names them."""
    names = []
    with open(profile, errors="replace") as lines:
        for line in lines:
            match = re.match(r"^c?fn=\(\d+\) (.*)", line)
            if match:
                names.append(match.group(1).strip())
    return names


if __name__ == "__main__":
    main()
