"""The start with nothing stored, counted in instructions (issue 48): on a shared machine a
start-up's wall time moves by a third between runs, load or not; the instructions a process
runs until its first frame hardly move. valgrind's cachegrind counts them (user space, every
thread), from the process's first instruction until the frame that holds the marker is
written to the terminal (`No saved games yet`; the bare app's line), where the process ends.

    uv run python tests/benchmarks/instructions.py [--at CHECKOUT ...] [--runs 2]

`--at` counts another checkout too (a `git worktree` of an older commit, beside this one's
`.venv`): its modules come first on the path. Both run in a pseudo-terminal of 100x30 with
their bytecode kept (each start is run once untimed first). Needs valgrind (Debian's
`valgrind`). Prints the instructions of each, and each against a bare Textual app's (one
line, as home.py's), and a bare app with the widgets of the home screen with nothing saved
(a header, the words, a footer) beside them; it fails nothing (the start's target is
home.py's, in wall time).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ssh_players import TERMINAL, drain, in_a_terminal  # noqa: E402

# Run under valgrind: the app (or the bare one), ending the process as soon as the frame
# with its marker is written (the driver's public write), so nothing after it is counted.
STARTER = r'''
import os, re, sys
sys.path.insert(0, sys.argv[3])
import textual.drivers.linux_driver as linux_driver

MARKER = "bare textual app ready" if sys.argv[1].startswith("bare") else "No saved games yet"
DRAWN = sys.argv[2]  # before the app's own arguments take sys.argv's place
written = [""]
write = linux_driver.LinuxDriver.write


def written_then_end(self, data):
    write(self, data)
    written[0] += re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", data)
    if MARKER in written[0]:
        with open(DRAWN, "w") as done:
            done.write("drawn\n")
        os._exit(0)


linux_driver.LinuxDriver.write = written_then_end
if sys.argv[1].startswith("bare"):
    from textual.app import App
    from textual.widgets import Static

    if sys.argv[1] == "bare-home":  # not imported by the one-line app
        from textual.widgets import Footer, Header

    class Bare(App):
        BINDINGS = [("n", "a", "New Struggle of Empires"), ("r", "b", "New Risk"),
                    ("l", "c", "League")]

        def compose(self):
            if sys.argv[1] == "bare-home":  # the widgets of warledger's home screen
                yield Header()
            yield Static("bare textual app ready")
            if sys.argv[1] == "bare-home":
                yield Footer()

    Bare().run()
else:
    sys.argv = ["warledger", "--db", sys.argv[1]]
    from tui.cli.start import main

    main()
'''


def count(what: str, checkout: Path, folder: Path, env: dict[str, str]) -> float:
    """Millions of instructions until the first frame of `what` (a database, or "bare")."""
    log, done = folder / "valgrind.log", folder / "drawn"
    for path in (log, done):
        path.unlink(missing_ok=True)
    argv = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
            "--cachegrind-out-file=/dev/null", f"--log-file={log}",
            sys.executable, str(folder / "starter.py"), what, str(done), str(checkout)]
    run_in_a_terminal(argv, env, checkout)
    found = re.search(r"I\s+refs:\s+([\d,]+)", log.read_text() if log.exists() else "")
    if found is None or not done.exists():
        raise RuntimeError(f"{what}: no first frame counted: {log.read_text()[-800:]!r}")
    return int(found.group(1).replace(",", "")) / 1e6


def run_in_a_terminal(argv: list[str], env: dict[str, str], cwd: Path,
                      timeout: float = 180.0) -> None:
    """`argv` in a pseudo-terminal of TERMINAL's size, its output read until it ends (the
    starter ends it at its first frame; under valgrind that takes some seconds)."""
    import time

    master, proc = in_a_terminal(argv, env, cwd)
    try:
        until = time.monotonic() + timeout
        drain(master, proc, until)
        proc.wait(timeout=max(1.0, until - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at", action="append", default=[], type=Path)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    from storage.service import open_ledger

    with tempfile.TemporaryDirectory(prefix="warledger-instr-") as name:
        folder = Path(name)
        db = folder / "empty.db"
        open_ledger(str(db)).engine.dispose()  # migrated, nothing stored
        (folder / "starter.py").write_text(STARTER)
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONDONTWRITEBYTECODE", "WARLEDGER_DB", "TMUX", "COLUMNS",
                            "LINES")}
        env.update({"TERM": "xterm-256color", "PYTHONMALLOC": "malloc",
                    "PYTHONPYCACHEPREFIX": str(folder / "bytecode"),
                    "XDG_DATA_HOME": str(folder / "xdg")})
        cases = [("bare Textual app", "bare", ROOT),
                 ("bare Textual app with home's header and footer", "bare-home", ROOT)] + [
            (f"warledger at {checkout}", str(db), checkout.resolve())
            for checkout in [ROOT, *args.at]]
        for _label, what, checkout in cases:
            count(what, checkout, folder, env)  # untimed: bytecode written
        figures = {label: statistics.median(count(what, checkout, folder, env)
                                            for _ in range(args.runs))
                   for label, what, checkout in cases}
    bare = figures["bare Textual app"]
    print(f"instructions until the first frame ({TERMINAL[0]}x{TERMINAL[1]}, median of "
          f"{args.runs})")
    for label, figure in figures.items():
        print(f"{label:60} {figure:8.1f} M  {figure / bare:5.2f}x the bare app")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
