"""A club's whole history on the home screen (issue 48), measured as ratios in one run:

- the home screen listed (the first frame with games in it) with 10,000 and 50,000 games
  against 100, on SQLite and on PostgreSQL (target: at most 1.3x);
- the home screen with nothing stored against a bare Textual app drawing one line
  (target: at most 1.25x);
- `warledger sessions` (the table) against `sessions --json` at 10,000 games (target: at
  most 2x).

    uv run python tests/benchmarks/home.py [--runs 9] [--pg URL] [--sizes 100,10000,50000]

Each start is `warledger --db …` in a pseudo-terminal of 100x30 (TERM=xterm-256color), timed
until the newest game's title is drawn (or, with nothing stored, the words that say so), then
ctrl+q; the bare app until its line is drawn. The sides are interleaved, the median of the
runs is taken, and each start is run once untimed first (bytecode, as an installed warledger
has it). The records are tests/benchmarks/records.py's, kept between runs. It exits 1 when a
target fails.
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from records import records  # noqa: E402
from run import BARE_APP, Report  # noqa: E402
from ssh_players import local_start  # noqa: E402

EMPTY_MARKER = "No saved games yet"
BARE_MARKER = "bare textual app ready"


def bench_env(folder: Path) -> dict[str, str]:
    """As run.py: bytecode kept, a terminal as players have, no real data folder."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "TEXTUAL", "TMUX", "STY", "COLORTERM",
                        "PYTHONDONTWRITEBYTECODE", "WARLEDGER_DB")}
    env.update({"TERM": "xterm-256color", "XDG_DATA_HOME": str(folder / "xdg"),
                "PYTHONPYCACHEPREFIX": str(folder / "bytecode")})
    return env


def newest_title(url: str) -> str:
    """The title the home screen shows first (the game played last)."""
    from storage.service import open_ledger

    ledger = open_ledger(url)
    try:
        return ledger.games_page(size=1).games[0].title
    finally:
        ledger.engine.dispose()


def starts(cases: dict[str, tuple[list[str], str]], env: dict[str, str],
           runs: int) -> dict[str, float]:
    """Median seconds until each case's marker is drawn, the cases run in turns."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for argv, marker in cases.values():
        local_start(argv, env, marker)  # untimed: bytecode, the disk's cache
    for _ in range(runs):
        for name, (argv, marker) in cases.items():
            times[name] += local_start(argv, env, marker)
    return {name: statistics.median(t) for name, t in times.items()}


def bench_listed(report: Report, warledger: str, env: dict[str, str], runs: int,
                 sizes: list[int], pg: str | None) -> None:
    databases = [("SQLite", None)] + ([("PostgreSQL", pg)] if pg else [])
    for name, server in databases:
        cases = {}
        for games in sizes:
            url = records(games, pg=server)
            db = url.removeprefix("sqlite:///") if server is None else url
            cases[str(games)] = ([warledger, "--db", db], newest_title(url))
        figures = starts(cases, env, runs)
        base = figures[str(sizes[0])]
        report.line(f"home listed, {sizes[0]:,} games, {name}", base)
        for games in sizes[1:]:
            report.line(f"home listed, {games:,} games, {name}", figures[str(games)], base,
                        f"{sizes[0]:,} games", most=1.3)


def bench_empty(report: Report, warledger: str, env: dict[str, str], runs: int,
                folder: Path) -> None:
    from storage.service import open_ledger

    db = folder / "empty.db"
    open_ledger(str(db)).engine.dispose()  # migrated, nothing stored
    bare = folder / "bare_app.py"
    bare.write_text(BARE_APP)
    figures = starts({"ours": ([warledger, "--db", str(db)], EMPTY_MARKER),
                      "bare": ([sys.executable, str(bare)], BARE_MARKER)}, env, runs)
    report.line("home listed, nothing stored", figures["ours"], figures["bare"],
                "bare Textual", most=1.25)


def bench_sessions(report: Report, warledger: str, env: dict[str, str], runs: int,
                   games: int) -> None:
    db = records(games).removeprefix("sqlite:///")
    table = [warledger, "--db", db, "sessions"]
    json_ = [*table, "--json"]
    for argv in (table, json_):
        subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    t_table, t_json = [], []
    for _ in range(runs):
        for argv, times in ((table, t_table), (json_, t_json)):
            t0 = time.perf_counter()
            subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - t0)
    report.line(f"`sessions` (table) at {games:,} games", statistics.median(t_table),
                statistics.median(t_json), "--json", most=2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--pg", default=os.environ.get("WARLEDGER_TEST_PG"))
    parser.add_argument("--sizes", default="100,10000,50000")
    parser.add_argument("--only", default="", help="listed, empty or sessions")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    warledger = shutil.which("warledger", path=str(Path(sys.executable).parent)) or "warledger"
    with tempfile.TemporaryDirectory(prefix="warledger-home-") as scratch:
        folder = Path(scratch)
        env = bench_env(folder)
        report = Report()
        print(f"(start-ups: median of {args.runs}, interleaved; 100x30 pseudo-terminal)")
        if args.only in ("", "empty"):
            bench_empty(report, warledger, env, args.runs, folder)
        if args.only in ("", "listed"):
            bench_listed(report, warledger, env, args.runs, sizes, args.pg)
        if args.only in ("", "sessions"):
            bench_sessions(report, warledger, env, max(5, args.runs // 2), 10_000)
    print("every target holds" if not report.failed else f"FAILED: {', '.join(report.failed)}")
    return 1 if report.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
