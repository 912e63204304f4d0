"""A club's whole history (issue 48), measured in one run on SQLite and PostgreSQL, each
figure beside the one it is compared with, measured in the same run (interleaved):

- `warledger export --all --format bgg` and `bgstats` against a bare script reading the
  same rows (SQLAlchemy alone, the four statements the export reads), at each size; the
  export's peak memory (the process's maximum resident set);
- the first league and `stats` after one more finished game against the cached ones
  (`warledger league --json` and `stats --json`, the game finished through the ledger; and
  Ledger.league() and Ledger.stats() in the process, for information);
- `warledger replay` of 1,000 session files into PostgreSQL against SQLite;
- the peak memory of a process that opens (folds) every game of the record.

    uv run python tests/benchmarks/history.py [--sizes 1000 10000] [--pg URL] [--only WORD]

The records are tests/benchmarks/records.py's, kept between runs (~/.cache/warledger-bench).
The lines that change a record work on a copy: a SQLite file copied, a PostgreSQL record
of their own in the database `--pg-scratch` names (default: `root` beside --pg's).
It exits 1 when a target fails.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from records import records  # noqa: E402

BARE = '''
import sys
from sqlalchemy import create_engine, text
engine = create_engine(sys.argv[1])
name = ("json_extract(seat.setup, '$.name')" if engine.dialect.name == "sqlite"
        else "(seat.setup ->> 'name')")
rows = 0
with engine.connect() as conn:
    for q in (
        "SELECT id, game, title, uid, source, created_at, updated_at, settings "
        "FROM game_session ORDER BY created_at, id",
        f"SELECT seat.session_id, {name} FROM seat JOIN game_session "
        "ON game_session.id = seat.session_id "
        "ORDER BY game_session.created_at, game_session.id, seat.position",
        "SELECT r.session_id, r.id, r.result, r.rounds, r.winners, r.finished_at "
        "FROM game_result r JOIN game_session s ON s.id = r.session_id "
        "ORDER BY s.created_at, s.id",
        "SELECT e.result_id, p.name, e.seat, e.side, e.place, e.score, e.won "
        "FROM result_entry e JOIN player p ON p.id = e.player_id "
        "JOIN game_result r ON r.id = e.result_id JOIN game_session s ON s.id = r.session_id "
        "ORDER BY s.created_at, s.id, e.seat"):
        for row in conn.execute(text(q)):
            rows += 1
print(rows)
'''

FOLD_ALL = '''
import resource, sys
from sqlalchemy import select
from storage.core import SESSION_T
from storage.service import open_ledger
ledger = open_ledger(sys.argv[1])
with ledger.engine.connect() as conn:
    ids = list(conn.execute(select(SESSION_T.c.id).order_by(SESSION_T.c.id)).scalars())
for n in ids:
    ledger.load(n)
print(len(ids), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
'''


class Report:
    def __init__(self) -> None:
        self.failed = False
        print(f"{'what':<62} {'figure':>11}  {'compared with':<26} {'ratio':>6}  target")

    def line(self, what: str, ours: float, theirs: float | None = None, against: str = "",
             most: float | None = None, unit: str = "ms") -> None:
        shown = f"{ours * 1000:.0f} ms" if unit == "ms" else f"{ours:.0f} {unit}"
        other = "" if theirs is None else (
            f"{against} {theirs * 1000:.0f} ms" if unit == "ms" else f"{against} {theirs:.0f}")
        ratio = "" if theirs is None else f"{ours / theirs:.2f}x"
        verdict = ""
        if most is not None:
            value = ours / theirs if theirs is not None else ours
            holds = value <= most
            self.failed |= not holds
            verdict = f"<= {most:g}{'x' if theirs is not None else ' ' + unit} " + \
                ("PASS" if holds else "FAIL")
        print(f"{what:<62} {shown:>11}  {other:<26} {ratio:>6}  {verdict}", flush=True)


def env() -> dict[str, str]:
    out = dict(os.environ)
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    out["PYTHONPATH"] = str(ROOT)
    return out


def run(argv: list[str]) -> tuple[float, int]:
    """Wall time and peak resident memory (KiB) of one process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env(),
                            cwd=ROOT)
    _pid, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - t0
    if status:
        raise SystemExit(f"{argv} failed: {proc.stderr.read().decode()[-2000:]}")
    proc.stderr.close()
    return took, usage.ru_maxrss


def interleaved(a: list[str], b: list[str], runs: int) -> tuple[float, float, int]:
    """Medians of `runs` of each, in turn (a warm-up of each first); a's peak memory."""
    run(a), run(b)
    ta, tb, peak = [], [], 0
    for _ in range(runs):
        took, rss = run(a)
        ta.append(took)
        peak = max(peak, rss)
        tb.append(run(b)[0])
    return statistics.median(ta), statistics.median(tb), peak


def warledger() -> list[str]:
    return [sys.executable, "-m", "tui"]


def bench_export(report: Report, where: str, url: str, games: int, runs: int) -> None:
    bare = Path(tempfile.gettempdir()) / "warledger-bare-export.py"
    bare.write_text(BARE)
    out = Path(tempfile.gettempdir()) / "warledger-export.out"
    for form in ("bgg", "bgstats"):
        ours, theirs, peak = interleaved(
            [*warledger(), "--db", url, "export", "--all", "--format", form, "--output",
             str(out)], [sys.executable, str(bare), url], runs)
        report.line(f"{where} {games:,}: export --all --format {form}", ours, theirs,
                    "bare script", most=3 if games <= 10_000 else None)
        report.line(f"{where} {games:,}:   ... its peak memory", peak / 1024, unit="MiB",
                    most=150 if games >= 50_000 else None)


def bench_folds(report: Report, where: str, url: str, games: int) -> None:
    script = Path(tempfile.gettempdir()) / "warledger-fold-all.py"
    script.write_text(FOLD_ALL)
    took, peak = run([sys.executable, str(script), url])
    report.line(f"{where} {games:,}: a process that opens every game, peak memory",
                peak / 1024, unit="MiB", most=200 if games >= 50_000 else None)
    report.line(f"{where} {games:,}:   ... its time", took)


def scratch_copy(url: str, games: int, pg_scratch: str | None) -> str:
    """A copy of the record that a line may change."""
    if url.startswith("sqlite"):
        source = Path(url.removeprefix("sqlite:///"))
        copy = Path(tempfile.gettempdir()) / f"warledger-history-{games}.db"
        for suffix in ("-wal", "-shm"):
            Path(f"{copy}{suffix}").unlink(missing_ok=True)
        shutil.copyfile(source, copy)
        return f"sqlite:///{copy}"
    # a cache folder of its own: the .done files say which database holds which record
    before = os.environ.get("WARLEDGER_BENCH_CACHE")
    os.environ["WARLEDGER_BENCH_CACHE"] = str(Path.home() / ".cache" / "warledger-bench-scratch")
    try:
        return records(games, pg=pg_scratch)
    finally:
        if before is None:
            os.environ.pop("WARLEDGER_BENCH_CACHE")
        else:
            os.environ["WARLEDGER_BENCH_CACHE"] = before


def one_more_game(ledger, rng: random.Random) -> None:
    """A finished Risk game of four of the record's players, finished now."""
    names = rng.sample(ledger.player_names(), 4)
    held = [20, 10, 8, 4]
    ledger.replay({"format": "warledger/1", "game": "risk", "title": "One more",
                   "settings": {"mode": "fixed_rounds", "rounds": 1},
                   "players": [{"name": n, "color": c} for n, c in
                               zip(names, ("red", "blue", "green", "yellow"), strict=True)],
                   "steps": [{"kind": "round", "positions": {
                       n: {"territories": t, "armies": t + 3, "continents": []}
                       for n, t in zip(names, held, strict=True)}}]}, group="Our table")


def bench_after_a_game(report: Report, where: str, url: str, games: int, runs: int) -> None:
    """`warledger league --json` and `stats --json` (the commands, as a player runs them)
    just after one more game finished, against the same command again (cached); then the
    same inside the process (Ledger.league(), Ledger.stats()), for information."""
    from storage.service import open_ledger

    ledger = open_ledger(url)
    rng = random.Random(48)
    for what in ("league", "stats"):
        command = [*warledger(), "--db", url, what, "--json"]
        run(command)
        first, cached = [], []
        for _ in range(runs):
            one_more_game(ledger, rng)
            first.append(run(command)[0])
            cached.append(run(command)[0])
        report.line(f"{where} {games:,}: `{what} --json` after one more finished game",
                    statistics.median(first), statistics.median(cached), "cached",
                    most=1.5 if games >= 10_000 else None)
    for what, call in (("league", lambda: ledger.league()),
                       ("stats", lambda: ledger.stats()),
                       ("stats of a group", lambda: ledger.stats("Our table"))):
        call()
        cached, first = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            call()
            cached.append(time.perf_counter() - t0)
            one_more_game(ledger, rng)
            t0 = time.perf_counter()
            call()
            first.append(time.perf_counter() - t0)
        report.line(f"{where} {games:,}:   ... Ledger.{what} in the process",
                    statistics.median(first), statistics.median(cached), "cached")
    ledger.engine.dispose()


def session_files(folder: Path, count: int) -> list[Path]:
    sys.path.insert(0, str(HERE))
    from ratings import random_game

    rng = random.Random(48)
    paths = []
    import json

    for i in range(count):
        path = folder / f"game-{i:04}.json"
        path.write_text(json.dumps(random_game(rng, i)))
        paths.append(path)
    return paths


def bench_replay(report: Report, pg: str, files: int) -> None:
    from sqlalchemy import create_engine

    with tempfile.TemporaryDirectory(prefix="warledger-replay-") as tmp:
        folder = Path(tmp)
        paths = [str(p) for p in session_files(folder, files)]
        sqlite_url = f"sqlite:///{folder / 'replayed.db'}"
        schema = "warledger_replay_bench"
        admin = create_engine(pg, isolation_level="AUTOCOMMIT")

        def fresh_pg() -> str:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
            from records import pg_url

            return pg_url(pg, schema)

        times = {"sqlite": [], "pg": []}
        for _ in range(2):
            Path(folder / "replayed.db").unlink(missing_ok=True)
            times["sqlite"].append(run([*warledger(), "--db", sqlite_url, "replay", *paths])[0])
            times["pg"].append(run([*warledger(), "--db", fresh_pg(), "replay", *paths])[0])
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.dispose()
    report.line(f"replay of {files:,} files into PostgreSQL", min(times["pg"]),
                min(times["sqlite"]), "SQLite", most=2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1_000, 10_000])
    parser.add_argument("--pg", default=os.environ.get("WARLEDGER_TEST_PG"))
    parser.add_argument("--pg-scratch", default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--files", type=int, default=1_000)
    parser.add_argument("--only", default=None, help="export, after, replay or folds")
    args = parser.parse_args()
    if args.pg and not args.pg_scratch:
        from sqlalchemy.engine import make_url

        args.pg_scratch = make_url(args.pg).set(database="root").render_as_string(
            hide_password=False)
    report = Report()
    wanted = (lambda word: args.only is None or args.only == word)  # noqa: E731
    for games in args.sizes:
        places = [("SQLite", records(games))]
        if args.pg:
            places.append(("PostgreSQL", records(games, pg=args.pg)))
        for where, url in places:
            if wanted("export"):
                bench_export(report, where, url, games, args.runs)
            if wanted("folds"):
                bench_folds(report, where, url, games)
            if wanted("after"):
                bench_after_a_game(report, where, scratch_copy(url, games, args.pg_scratch),
                                   games, 5)
    if args.pg and wanted("replay"):
        bench_replay(report, args.pg, args.files)
    return 1 if report.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
