"""Start-up as users start warledger (issue 23): `uv run warledger` from the project folder,
as the README says, and `warledger` installed by `uv tool install .`, each timed in a real
pseudo-terminal to the home screen's first frame and to its saved games listed, beside
`.venv/bin/warledger` (what tests/benchmarks/run.py times) and a bare Textual app.

    python3 tests/benchmarks/startup.py               # 9 runs of each, bytecode kept
    python3 tests/benchmarks/startup.py --cold        # and again with no bytecode written
    uv run python tests/benchmarks/startup.py --runs 5

Only the standard library: any Python 3.11 runs it. It builds its own data in a temporary
folder (the two demo games in a SQLite file, through `uv run warledger demo --no-tui`),
installs the tool there (UV_TOOL_DIR and UV_TOOL_BIN_DIR), runs each start once untimed,
then the four interleaved, `--runs` times, and prints medians and their ratios, all from
the same run. It also says whether `uv run` printed anything before the app (a sync, or
"Bytecode compiled ..." as it did at every start while pyproject set compile-bytecode), and
exits 1 if it printed "Bytecode compiled".

Bytecode: a user's Python writes it beside the modules at the first start and reads it
afterwards (uv compiles none at install unless asked). Kept here in the scratch folder
(PYTHONPYCACHEPREFIX, PYTHONDONTWRITEBYTECODE removed), so the timed starts are a user's
second start and later. `--cold` adds the same four with PYTHONDONTWRITEBYTECODE=1 and no
cache, as this machine's environment runs them: every module compiled at every start
(except what an install compiled: `uv sync --compile-bytecode` in .ci/run).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
# The terminal, the markers and the ANSI stripping of the other start-up lines.
from ssh_players import FIRST_FRAME, LISTED, TERMINAL, pty_start, strip_ansi  # noqa: E402

BARE = "bare textual app ready"
BARE_APP = f'''
from textual.app import App
from textual.widgets import Static


class Bare(App):
    def compose(self):
        yield Static("{BARE}")


Bare().run()
'''
ALT_SCREEN = b"\x1b[?1049h"  # Textual's first write: what comes before is not the app's


def start(argv: list[str], env: dict[str, str], cwd: Path, *markers: str,
          timeout: float = 120.0) -> tuple[list[float], str]:
    """`argv` in a pseudo-terminal of TERMINAL's size: seconds until each marker was drawn,
    and what was written before the app took the screen; then ctrl+q."""
    seen, raw = pty_start(argv, env, *markers, cwd=cwd, timeout=timeout)
    before = strip_ansi(raw.split(ALT_SCREEN, 1)[0]) if ALT_SCREEN in raw else strip_ansi(raw)
    return seen, before


def ms(seconds: float | None) -> str:
    return "" if seconds is None else f"{seconds * 1000:.1f} ms"


def package_version(python: Path, name: str) -> str:
    done = subprocess.run([str(python), "-c", "import importlib.metadata as m, sys; "
                           f"print(m.version({name!r}), sys.version.split()[0])"],
                          capture_output=True, text=True)
    return ", Python ".join(done.stdout.split()) or "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="timed starts of each")
    parser.add_argument("--cold", action="store_true",
                        help="also time every start with no bytecode written")
    args = parser.parse_args(argv)
    uv = shutil.which("uv") or shutil.which("uv", path=str(Path.home() / ".local" / "bin"))
    if uv is None:
        print("uv is not installed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="warledger-startup-") as scratch:
        folder = Path(scratch)
        # A user's shell: no venv of the caller's (this script may run under `uv run`), no
        # terminal settings of the caller's, data in the scratch folder.
        base = {k: v for k, v in os.environ.items()
                if k not in ("COLUMNS", "LINES", "TEXTUAL", "TMUX", "STY", "COLORTERM",
                             "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME",
                             "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")
                and not k.startswith("UV_RUN")}
        base.update({"TERM": "xterm-256color", "XDG_DATA_HOME": str(folder / "xdg"),
                     "WARLEDGER_DB": str(folder / "default.db"),
                     "PATH": f"{Path(uv).parent}{os.pathsep}{base.get('PATH', '')}"})
        warm = {**base, "PYTHONPYCACHEPREFIX": str(folder / "bytecode")}
        cold = {**base, "PYTHONDONTWRITEBYTECODE": "1"}

        db = folder / "games.db"
        made = subprocess.run([uv, "run", "warledger", "demo", "--no-tui", "--db", str(db)],
                              cwd=ROOT, env=warm, capture_output=True, text=True, timeout=600)
        if made.returncode:
            print(f"`uv run warledger demo` failed:\n{made.stdout}{made.stderr}", file=sys.stderr)
            return 2
        uv_said = [line for line in (made.stderr + made.stdout).splitlines()
                   if line.strip() and "Demo games stored" not in line]

        venv_python = ROOT / ".venv" / "bin" / "python"
        tools = {**warm, "UV_TOOL_DIR": str(folder / "tools"),
                 "UV_TOOL_BIN_DIR": str(folder / "bin")}
        t0 = time.perf_counter()
        installed = subprocess.run([uv, "tool", "install", "--quiet", "--python",
                                    str(venv_python.resolve()), "."], cwd=ROOT, env=tools,
                                   capture_output=True, text=True, timeout=900)
        install_time = time.perf_counter() - t0
        if installed.returncode:
            print(f"`uv tool install .` failed:\n{installed.stderr}", file=sys.stderr)
            return 2
        tool = folder / "bin" / "warledger"
        tool_python = folder / "tools" / "warledger" / "bin" / "python"
        bare = folder / "bare_app.py"
        bare.write_text(BARE_APP)
        outside = folder / "elsewhere"
        outside.mkdir()

        # what: (argv, folder it starts in, markers)
        starts = {
            "`uv run warledger` (the README, in the project)":
                ([uv, "run", "warledger", "--db", str(db)], ROOT, (FIRST_FRAME, LISTED)),
            "`warledger` of `uv tool install .`":
                ([str(tool), "--db", str(db)], outside, (FIRST_FRAME, LISTED)),
            "`.venv/bin/warledger` (what run.py times)":
                ([str(ROOT / ".venv" / "bin" / "warledger"), "--db", str(db)], ROOT,
                 (FIRST_FRAME, LISTED)),
            "bare Textual app (.venv's Python)":
                ([str(venv_python), str(bare)], folder, (BARE,)),
        }
        said: dict[str, list[str]] = {}  # what `uv run` printed before the app, per line

        def note(what: str, before: str) -> None:
            if what.startswith("`uv run"):
                for line in before.splitlines():
                    if line.strip():
                        said.setdefault(line.strip(), []).append(what)

        modes = [("bytecode kept (a user's second start and later)", warm)]
        if args.cold:
            modes.append(("no bytecode written (PYTHONDONTWRITEBYTECODE=1, as this machine)",
                          cold))
        # uv's own start, to read the `uv run` lines by.
        plain: dict[str, list[float]] = {"uv --version": [], "uv run true": [],
                                          "uv run --no-sync true": []}
        for _ in range(args.runs):
            for what in plain:
                t0 = time.perf_counter()
                subprocess.run([uv, *what.split()[1:]], cwd=ROOT, env=warm, check=True,
                               capture_output=True)
                plain[what].append(time.perf_counter() - t0)
        results = {}
        for mode, env in modes:
            for what, (cmd, cwd, markers) in starts.items():  # untimed: bytecode, caches
                note(what, start(cmd, env, cwd, *markers)[1])
            times: dict[str, list[list[float]]] = {what: [] for what in starts}
            order = list(starts)
            for run in range(args.runs):
                # Interleaved, each run in another order, so a noisy moment hits them all.
                for what in order[run % len(order):] + order[:run % len(order)]:
                    cmd, cwd, markers = starts[what]
                    seen, before = start(cmd, env, cwd, *markers)
                    note(what, before)
                    times[what].append(seen)
            results[mode] = {what: [statistics.median(t[i] for t in runs)
                                    for i in range(len(runs[0]))]
                             for what, runs in times.items()}

        print(f"start-up in a pseudo-terminal of {TERMINAL[0]}x{TERMINAL[1]} "
              f"(TERM=xterm-256color), median of {args.runs} runs each, interleaved; "
              f"1st frame: the home screen's footer ({FIRST_FRAME!r}) drawn; listed: a saved "
              f"game's title ({LISTED!r}) drawn")
        uv_version = subprocess.run([uv, "--version"], capture_output=True, text=True).stdout
        print(f"uv: {uv} ({uv_version.strip()})")
        print(f"Textual and Python: the project's venv {package_version(venv_python, 'textual')}; "
              f"the tool's {package_version(tool_python, 'textual')} (installed in "
              f"{install_time:.1f} s)")
        short = dict(zip(starts, ("uv run", "uv tool", ".venv/bin", "bare Textual"),
                         strict=True))
        by = {name: what for what, name in short.items()}
        for mode, medians in results.items():
            print(f"\n{mode}")
            print(f"  {'how it is started':<50} {'1st frame':>10} {'listed':>10}")
            for what, figures in medians.items():
                first, listed = (figures + [None])[:2]
                print(f"  {what:<50} {ms(first):>10} {ms(listed):>10}")
            print("  ratios, games listed (bare Textual: its first frame):")
            for a, b in (("uv run", ".venv/bin"), ("uv tool", ".venv/bin"), ("uv run", "uv tool"),
                         ("uv run", "bare Textual"), ("uv tool", "bare Textual")):
                la, lb = medians[by[a]][-1], medians[by[b]][-1]
                print(f"    {a + ' / ' + b:<26} {la / lb:5.2f}x  ({(la - lb) * 1000:+.1f} ms)")
        print("\nuv itself, median of the same number of runs (no terminal): "
              + "; ".join(f"`{what}` {ms(statistics.median(t))}" for what, t in plain.items()))
        print()
        compiled = [line for line in [*said, *uv_said] if "Bytecode compiled" in line]
        if uv_said:
            print("`uv run warledger demo` (the first uv run) printed: " + "; ".join(uv_said))
        if said:
            print("`uv run warledger` printed before the app:")
            for line, whats in said.items():
                print(f"    {line!r} ({len(whats)} of the starts)")
        else:
            print("`uv run warledger` printed nothing before the app at any start")
        print("\"Bytecode compiled\" printed by uv run: "
              + (f"YES: {compiled}" if compiled else "no"))
    return 1 if compiled else 0


if __name__ == "__main__":
    sys.exit(main())
