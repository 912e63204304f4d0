"""warledger benchmarks: every speed target (issues 7 and 15) and the keys a step costs
(issue 14), measured as ratios in one run.

    uv run python tests/benchmarks/run.py            # everything (a few minutes)
    uv run python tests/benchmarks/run.py --no-ssh   # skip the 16 SSH players

`replay` and `league` are measured as the commands the issue names (the target lines) and,
on the line below each, inside the process. See tests/benchmarks/README.md.

The script builds its own data in a temporary folder: a Struggle of Empires game and a
Risk game of 2,000 steps (with undo and redo) and of 20 steps, and a league of 500
finished games. Each figure is printed next to the figure it is compared with, with the
ratio, the target and PASS or FAIL; the machines are noisy, so compare ratios, not times.
It exits 1 when a target fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # keystrokes.py, ssh_players.py

# A pseudo-terminal start, timed (ssh_players.py: only the standard library).
from ssh_players import local_start as wait_for_screen  # noqa: E402

LONG, SHORT = 2000, 20
LEAGUE_GAMES = 500
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu")
POWERS = ("France", "Britain", "Austria", "Russia")
COLOURS = ("red", "blue", "green", "yellow")

BARE_APP = '''
from textual.app import App
from textual.widgets import Static


class Bare(App):
    def compose(self):
        yield Static("bare textual app ready")


Bare().run()
'''


# ---------------------------------------------------------------- the games

def soe_game(steps: int, title: str) -> dict:
    """War 1 full of bookkeeping (taxes, adjustments, undo and redo), then its end: `steps`
    steps in all, the game in war 2."""
    from tui.games.soe.demo import DEMO_REGIONS

    pattern = [
        {"kind": "tax", "power": "France", "unrest": 1},
        {"kind": "adjust", "power": "Britain", "gold": 1, "note": "won a battle"},
        {"kind": "tax", "power": "Austria", "unrest": 2},
        {"kind": "undo"},
        {"kind": "redo"},
        {"kind": "tax", "power": "Russia", "unrest": 1},
        {"kind": "adjust", "power": "Russia", "gold": -1, "unrest": 1, "note": "lost a fleet"},
        {"kind": "undo"},
        {"kind": "adjust", "power": "France", "population": 1, "note": "colony"},
        {"kind": "adjust", "power": "France", "population": -1, "note": "plague"},
    ]
    grid = {"German States": {"France": 2, "Austria": 3}, "Baltic": {"Russia": 2},
            "India": {"Britain": 2, "France": 1}}
    end = [{"kind": "income", "regions": grid},
           {"kind": "upkeep", "units": {"France": {"armies": 2}}, "taxes": {}},
           {"kind": "population"}, {"kind": "scoring"}, {"kind": "end_war"}]
    body = [pattern[i % len(pattern)] for i in range(steps - len(end))]
    return {"format": "warledger/1", "game": "soe", "title": title,
            "settings": {"regions": DEMO_REGIONS},
            "players": [{"name": n, "power": p} for n, p in zip(NAMES, POWERS, strict=False)],
            "steps": body + end}


def risk_position(r: int) -> dict:
    d = r % 3
    t = (12 + d, 10 - d, 10, 10)
    return {n: {"territories": t[i], "armies": t[i] + 5 + r % 7,
                "continents": ["Australia"] if i == 0 else []}
            for i, n in enumerate(NAMES[:4])}


def risk_game(steps: int, title: str) -> dict:
    """A conquest game of many rounds, each with every position, an undo and redo now
    and then: `steps` steps in all, still being played."""
    out: list[dict] = []
    r = 0
    while len(out) < steps:
        if r % 10 == 9 and len(out) + 2 <= steps:
            out += [{"kind": "undo"}, {"kind": "redo"}]
        else:
            out.append({"kind": "round", "positions": risk_position(r)})
        r += 1
    return {"format": "warledger/1", "game": "risk", "title": title,
            "settings": {"mode": "conquest"},
            "players": [{"name": n, "color": c} for n, c in zip(NAMES, COLOURS, strict=False)],
            "steps": out}


def finished_game(i: int) -> dict:
    """A short finished game for the league: Struggle of Empires or fixed-round Risk."""
    names = [NAMES[(i + k * 5) % len(NAMES)] for k in range(4)]
    if i % 2:
        return {"format": "warledger/1", "game": "risk", "title": f"League night {i}",
                "settings": {"mode": "fixed_rounds", "rounds": 1},
                "players": [{"name": n, "color": c} for n, c in zip(names, COLOURS, strict=True)],
                "steps": [{"kind": "round", "positions": {
                    n: {"territories": (12, 10, 10, 10)[k], "armies": 20 - k, "continents": []}
                    for k, n in enumerate(names)}}]}
    from tui.games.soe.demo import DEMO_REGIONS

    steps: list[dict] = []
    for war in range(3):
        leader = POWERS[(i // 2 + war) % 4]
        grid = {"German States": {leader: 3, "Austria": 1}, "India": {leader: 2}}
        steps += [{"kind": "income", "regions": grid}, {"kind": "upkeep"},
                  {"kind": "population"}, {"kind": "scoring"},
                  {"kind": "end_war" if war < 2 else "end_game"}]
    return {"format": "warledger/1", "game": "soe", "title": f"League war {i}",
            "settings": {"regions": DEMO_REGIONS},
            "players": [{"name": n, "power": p} for n, p in zip(names, POWERS, strict=True)],
            "steps": steps}


# ---------------------------------------------------------------- measuring

def median_time(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of `fn`, in seconds."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def interleaved(a: Callable[[], object], b: Callable[[], object], runs: int,
                quartile: bool = True) -> tuple[float, float]:
    """Times of a and b, run in turns so a noisy moment hits both: the lower quartile of
    the runs (the machine's scheduler takes 4 ms slices off a run of 2 ms at random, which
    makes medians of short operations jump), or the median for long ones."""
    ta, tb = [], []
    for _ in range(runs):
        for fn, times in ((a, ta), (b, tb)):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    pick = (lambda t: statistics.quantiles(t, n=4)[0]) if quartile else statistics.median
    return pick(ta), pick(tb)


class Report:
    """The lines printed, and whether every target held."""

    def __init__(self) -> None:
        self.failed: list[str] = []
        print(f"{'what':<50} {'figure':>10}  {'compared with':<26} {'ratio':>7}  "
              f"{'target':<9} result")

    def line(self, what: str, figure: float, base: float | None = None, base_name: str = "",
             *, most: float | None = None, under_ms: float | None = None) -> None:
        ratio = figure / base if base else None
        verdict = "info"
        target = ""
        if most is not None:
            target = f"<= {most:g}x"
            verdict = "PASS" if ratio <= most else "FAIL"
        elif under_ms is not None:
            target = f"< {under_ms:g} ms"
            verdict = "PASS" if figure * 1000 < under_ms else "FAIL"
        if verdict == "FAIL":
            self.failed.append(what)
        compared = f"{base_name} {ms(base)}" if base else ""
        print(f"{what:<50} {ms(figure):>10}  {compared:<26} "
              f"{f'{ratio:.2f}x' if ratio else '':>7}  {target:<9} {verdict}", flush=True)

    def note(self, what: str, figure: str) -> None:
        print(f"{what:<50} {figure:>10}  {'':<26} {'':>7}  {'':<9} info", flush=True)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 0.01 else f"{seconds * 1000:.1f} ms"


# ---------------------------------------------------------------- the lines of the table

def bench_start_up(report: Report, folder: Path, env: dict[str, str], runs: int) -> None:
    from storage.service import open_ledger
    from tui.cli.demo import load_demos

    db = folder / "start-up.db"
    load_demos(open_ledger(str(db)))
    bare = folder / "bare_app.py"
    bare.write_text(BARE_APP)
    warledger = shutil.which("warledger", path=str(Path(sys.executable).parent)) or "warledger"
    ours, home, theirs = [], [], []
    wait_for_screen([sys.executable, str(bare)], env, "bare textual app ready")  # bytecode
    wait_for_screen([warledger, "--db", str(db)], env, "Demo: Risk")
    for _ in range(runs):
        theirs += wait_for_screen([sys.executable, str(bare)], env, "bare textual app ready")
        # The footer ends the first frame; a demo game's title appears once the list is in.
        first, listed = wait_for_screen([warledger, "--db", str(db)], env,
                                        "New Struggle of Empires", "Demo: Risk")
        ours.append(first)
        home.append(listed)
    bare_t = statistics.median(theirs)
    report.line("start-up: `warledger` to the home screen's 1st frame", statistics.median(ours),
                bare_t, "bare Textual")
    report.line("home screen with the saved games listed", statistics.median(home),
                bare_t, "bare Textual", most=1.5)


def bench_record(report: Report, folder: Path, runs: int) -> None:
    from storage.engine import make_engine
    from storage.ledger import Ledger

    path = folder / "bare.db"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA synchronous = NORMAL")
    con.execute("CREATE TABLE step (id INTEGER PRIMARY KEY, session_id INTEGER, seq INTEGER, "
                "kind TEXT, payload TEXT, UNIQUE (session_id, seq))")
    payload = json.dumps({"kind": "tax", "power": "France", "unrest": 1})
    seq = iter(range(1, 10**9))

    def bare_insert() -> None:
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO step (session_id, seq, kind, payload) VALUES (1, ?, 'tax', ?)",
                    (next(seq), payload))
        con.execute("COMMIT")

    bare_t = median_time(bare_insert, runs)
    con.close()

    engine = make_engine(str(folder / "record.db"))
    ledger = Ledger(engine)
    soe = ledger.replay(soe_game(LONG, "Long war")).id
    risk = ledger.replay(risk_game(LONG, "Long conquest")).id
    ledger = Ledger(engine)  # the game opened as the app does, then played on
    ledger.load(soe)
    ledger.load(risk)
    soe_steps = [{"kind": "tax", "power": "France", "unrest": 1},
                 {"kind": "adjust", "power": "Britain", "gold": 1, "note": "won a battle"},
                 {"kind": "undo"}, {"kind": "redo"}]
    n = iter(range(10**9))
    report.line(f"record one step, SoE game of {LONG} steps (median)",
                median_time(lambda: ledger.record(soe, soe_steps[next(n) % 4]), runs),
                bare_t, "bare SQLite insert", under_ms=2)
    r = iter(range(10**9))
    report.line(f"record one step, Risk game of {LONG} steps (median)",
                median_time(lambda: ledger.record(
                    risk, {"kind": "round", "positions": risk_position(next(r))}), runs),
                bare_t, "bare SQLite insert", under_ms=2)
    engine.dispose()


def bench_open(report: Report, folder: Path, runs: int) -> None:
    from storage.engine import make_engine
    from storage.ledger import Ledger

    engine = make_engine(str(folder / "open.db"))
    ledger = Ledger(engine)
    for name, make in (("Struggle of Empires", soe_game), ("Risk", risk_game)):
        long = ledger.replay(make(LONG, "Long")).id
        short = ledger.replay(make(SHORT, "Short")).id
        # A fresh Ledger each time: nothing folded yet, as when the app starts.
        t_long, t_short = interleaved(lambda g=long: Ledger(engine).load(g),
                                      lambda g=short: Ledger(engine).load(g), runs)
        report.line(f"open a {name} game of {LONG} steps", t_long, t_short,
                    f"{SHORT} steps", most=1.5)
    engine.dispose()


def bench_replay(report: Report, folder: Path, env: dict[str, str], runs: int) -> None:
    from rules.session_file import parse_text
    from storage.engine import make_engine
    from storage.ledger import Ledger

    warledger = shutil.which("warledger", path=str(Path(sys.executable).parent)) or "warledger"
    for name, make in (("Struggle of Empires", soe_game), ("Risk", risk_game)):
        files = {}
        for steps in (LONG, SHORT):
            files[steps] = folder / f"{make.__name__}-{steps}.json"
            files[steps].write_text(json.dumps(make(steps, f"Replayed {steps}")))
        db = folder / f"replay-{make.__name__}.db"
        make_engine(str(db)).dispose()

        def command(steps: int, db: Path = db, files: dict = files) -> None:
            subprocess.run([warledger, "--db", str(db), "replay", str(files[steps]), "--json"],
                           env=env, check=True, stdout=subprocess.DEVNULL)

        t_long, t_short = interleaved(partial(command, LONG), partial(command, SHORT),
                                      max(3, runs // 4), quartile=False)
        report.line(f"`warledger replay` {name} file, {LONG} steps", t_long, t_short,
                    f"{SHORT} steps", most=2)
        engine = make_engine(str(db))
        ledger = Ledger(engine)

        def inside(steps: int, ledger: Ledger = ledger, files: dict = files) -> None:
            ledger.replay(parse_text(files[steps].read_bytes()))

        t_long, t_short = interleaved(partial(inside, LONG), partial(inside, SHORT),
                                      max(3, runs // 4))
        report.line("  ... inside the process (read, check, fold, store)", t_long, t_short,
                    f"{SHORT} steps")
        engine.dispose()


def bench_league(report: Report, folder: Path, env: dict[str, str], runs: int) -> None:
    from storage.engine import make_engine
    from storage.ledger import Ledger

    warledger = shutil.which("warledger", path=str(Path(sys.executable).parent)) or "warledger"
    big, one = folder / "league.db", folder / "league-one.db"
    engine = make_engine(str(big))
    ledger = Ledger(engine)
    for i in range(LEAGUE_GAMES):
        ledger.replay(finished_game(i))
    small_engine = make_engine(str(one))
    small = Ledger(small_engine)
    small.replay(finished_game(0))
    assert sum(r.played for r in ledger.league()) == 4 * LEAGUE_GAMES
    t_big_inside, t_one_inside = interleaved(ledger.league, small.league, runs)
    engine.dispose()
    small_engine.dispose()

    def command(db: Path) -> None:
        subprocess.run([warledger, "--db", str(db), "league", "--json"], env=env, check=True,
                       stdout=subprocess.DEVNULL)

    t_big, t_one = interleaved(lambda: command(big), lambda: command(one), max(3, runs // 4),
                               quartile=False)
    report.line(f"`warledger league` over {LEAGUE_GAMES} finished games", t_big, t_one,
                "1 game", most=2)
    report.line("  ... inside the process (Ledger.league)", t_big_inside, t_one_inside,
                "1 game")


SESSIONS_BY_SQLALCHEMY = '''
import json, sys
from sqlalchemy import create_engine, text
engine = create_engine("sqlite:///" + sys.argv[1])
with engine.connect() as conn:
    games = conn.execute(text("SELECT id, game, title, status, summary, updated_at "
                              "FROM game_session ORDER BY updated_at DESC, id DESC")).all()
    seats = conn.execute(text("SELECT seat.session_id, player.name FROM seat JOIN player "
                              "ON player.id = seat.player_id ORDER BY seat.session_id, "
                              "seat.position")).all()
names = {}
for sid, name in seats:
    names.setdefault(sid, []).append(name)
print(json.dumps([{"id": g.id, "game": g.game, "title": g.title, "status": g.status,
                   "players": names.get(g.id, []),
                   "phase": json.loads(g.summary or "{}").get("phase"),
                   "updated_at": str(g.updated_at)} for g in games], indent=2))
'''


def bench_sessions(report: Report, folder: Path, env: dict[str, str], runs: int) -> None:
    """`warledger sessions --json` against a script that only imports SQLAlchemy and prints
    the same rows from the same file."""
    from storage.service import open_ledger
    from tui.cli.demo import load_demos

    db = folder / "sessions.db"
    load_demos(open_ledger(str(db)))
    script = folder / "sessions_by_sqlalchemy.py"
    script.write_text(SESSIONS_BY_SQLALCHEMY)
    warledger = shutil.which("warledger", path=str(Path(sys.executable).parent)) or "warledger"
    ours = [warledger, "--db", str(db), "sessions", "--json"]
    theirs = [sys.executable, str(script), str(db)]
    mine = json.loads(subprocess.run(ours, env=env, check=True, capture_output=True).stdout)
    bare = json.loads(subprocess.run(theirs, env=env, check=True, capture_output=True).stdout)
    if [(g["id"], g["players"]) for g in mine] != [(g["id"], g["players"]) for g in bare]:
        raise SystemExit("the SQLAlchemy script does not print the same games")
    t_ours, t_theirs = interleaved(
        lambda: subprocess.run(ours, env=env, check=True, stdout=subprocess.DEVNULL),
        lambda: subprocess.run(theirs, env=env, check=True, stdout=subprocess.DEVNULL),
        runs, quartile=False)
    report.line("`warledger sessions --json`", t_ours, t_theirs, "SQLAlchemy only", most=1.5)


def bench_replay_many(report: Report, folder: Path, env: dict[str, str], runs: int) -> None:
    """A season's exports in one call: `replay` of 500 files against `replay` of one."""
    warledger = shutil.which("warledger", path=str(Path(sys.executable).parent)) or "warledger"
    files = []
    for i in range(LEAGUE_GAMES):
        path = folder / "season" / f"game-{i:03d}.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(finished_game(i)))
        files.append(str(path))
    count = iter(range(10**6))

    def replay(paths: list[str]) -> None:
        db = folder / f"season-{next(count)}.db"  # every run stores into an empty database
        subprocess.run([warledger, "--db", str(db), "replay", *paths], env=env, check=True,
                       stdout=subprocess.DEVNULL)

    t_all, t_one = interleaved(lambda: replay(files), lambda: replay(files[:1]), runs,
                               quartile=False)
    report.line(f"`warledger replay` of {LEAGUE_GAMES} files in one call", t_all, t_one,
                "1 file", most=3)


def bench_live(report: Report, folder: Path, looks: int, pg_url: str | None) -> None:
    """A step recorded through one ledger (another terminal), from its commit until the game
    screen of an app on the same database shows it: p95 over `looks` steps, on SQLite and
    PostgreSQL."""
    targets = [("SQLite", f"sqlite:///{folder / 'live.db'}", None)]
    if pg_url:
        targets.append(("PostgreSQL", *pg_schema(pg_url)))
    else:
        print("live refresh on PostgreSQL: not measured (no --pg URL nor WARLEDGER_TEST_PG)")
    for name, url, drop in targets:
        try:
            delays = asyncio.run(_live(url, looks))
        finally:
            if drop is not None:
                drop()
        delays.sort()
        p95 = delays[int(0.95 * (len(delays) - 1))]
        report.line(f"live refresh on {name}: another terminal's step shown, p95", p95,
                    under_ms=300)


def pg_schema(base_url: str) -> tuple[str, Callable[[], None]]:
    """A fresh PostgreSQL schema for the benchmark, and how to drop it."""
    import uuid

    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    schema = f"warledger_bench_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    admin = create_engine(base_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')

    def drop() -> None:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.dispose()

    url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False), drop


async def _live(url: str, looks: int) -> list[float]:
    from storage.engine import make_engine
    from storage.ledger import Ledger
    from tui.app import WarledgerApp

    other_engine = make_engine(url)
    other = Ledger(other_engine)  # the other terminal
    game = other.create_game("soe", "Live", {}, [{"name": n, "power": p} for n, p in
                                                  zip(NAMES, POWERS, strict=False)])
    app = WarledgerApp(ledger=Ledger(make_engine(url)))
    delays = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_game(game.id)
        while getattr(app.screen, "game", None) is None or app.screen.game.id != game.id:
            await asyncio.sleep(0.01)
        for i in range(looks):
            # A brisk table: a step every 0.3-0.5 s, at no rhythm of the looks'.
            await asyncio.sleep(0.3 + (i % 7) * 0.029)
            recorded = await asyncio.to_thread(lambda: (other.record(
                game.id, {"kind": "tax", "power": "France", "unrest": 1}).seq,
                time.perf_counter()))
            seq, t0 = recorded  # from the moment the step is committed
            while app.screen.game.seq < seq:
                await asyncio.sleep(0.005)
            delays.append(time.perf_counter() - t0)
    other_engine.dispose()
    return delays


def bench_keys(report: Report) -> None:
    """Keys a step costs (tests/benchmarks/keystrokes.py): counts, not times."""
    import keystrokes

    found = asyncio.run(keystrokes.measure())
    for what, keys, most in keystrokes.lines(found):
        verdict = "PASS" if keys <= most else "FAIL"
        if verdict == "FAIL":
            report.failed.append(what)
        print(f"{'keys: ' + what:<50} {keys:>7} keys  {'':<26} {'':>7}  "
              f"{f'<= {most}':<9} {verdict}", flush=True)


def bench_burst(report: Report) -> None:
    """200 keys of a burst kept in order, against the same keys straight to the grid
    (tests/benchmarks/burst.py)."""
    import burst

    ordered, straight = asyncio.run(burst.measure())
    report.line(f"{burst.KEYS} keys of a burst, settled in order", ordered, straight,
                "straight to the grid", most=burst.MOST)


def bench_paint(report: Report) -> None:
    """Keys typed into a grid and painted, cells kept as painted, against every cell
    painted again (tests/benchmarks/paint.py)."""
    import paint

    kept, own = asyncio.run(paint.measure())
    report.line(f"{paint.KEYS} keys typed and painted, CPU", kept, own,
                "every cell painted again", most=paint.MOST)


def bench_drafts(report: Report) -> None:
    """Keys typed with the draft written at each key, against a build that never writes
    one (tests/benchmarks/drafts.py)."""
    import drafts

    figures = drafts.measure_now()
    cpu, wall, took, written = (figures[k] for k in ("cpu", "wall", "burst", "writes"))
    report.line("a key typed with its draft written, CPU", cpu[0], cpu[1], "never written",
                most=drafts.MOST)
    report.line("  ... wall time, the key and its draft", wall[0], wall[1], "never written")
    report.line(f"{drafts.BURST} keys in a burst, settled and written", took[0], took[1],
                "never written")
    report.note(f"  ... drafts written for {drafts.BURST} keys", f"{written[0]:.0f}")


def bench_footer(report: Report) -> None:
    """A game opened, its help and fields, with the footer built only when its keys change,
    against Textual's own footer (tests/benchmarks/footer.py)."""
    import footer

    ours, own = asyncio.run(footer.measure())
    report.line(f"a game, its help and fields {footer.VISITS} times, CPU", ours, own,
                "Textual's own footer", most=footer.MOST)


def bench_as_users(report: Report, runs: int) -> None:
    """tests/benchmarks/startup.py: `uv run warledger` and `uv tool install .` started in a
    pseudo-terminal (its own table); a "Bytecode compiled" line from `uv run` fails."""
    import startup

    print("-- tests/benchmarks/startup.py --", flush=True)
    if startup.main(["--runs", str(runs)]):
        report.failed.append("start-up as users start it (tests/benchmarks/startup.py)")
    print("--", flush=True)


def bench_suite(report: Report) -> None:
    """`uv run pytest`, the README's test command, as CI runs it."""
    t0 = time.perf_counter()
    done = subprocess.run(["uv", "run", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ROOT,
                          capture_output=True, text=True)
    took = time.perf_counter() - t0
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "no output"
    print(f"`uv run pytest`: {summary}", flush=True)
    if done.returncode:
        report.failed.append("uv run pytest failed")
    report.line("`uv run pytest` (the whole suite)", took, under_ms=240_000)


# ---------------------------------------------------------------- SSH

def bench_ssh(report: Report, folder: Path, env: dict[str, str], players: int,
              keystrokes: int) -> None:
    """Players at an SSH table (tests/benchmarks/ssh_players.py): connect to first frame
    against a local start, and memory (PSS) per connected player with 4 and `players`; then
    the keystroke-to-redraw latency with `players` typing at once."""
    try:
        import asyncssh  # noqa: F401
        import ssh_players
    except ImportError as e:
        print(f"SSH: not measured (server not available: {e})")
        return
    figures = ssh_players.measure(folder / "ssh-players", env, counts=(4, players), runs=5)
    start = figures["start"]
    report.line("SSH: connect to the 1st frame", start["ssh_first_frame"],
                start["local_first_frame"], "local start", most=1.2)
    for count in (4, players):
        mib = figures[count]["pss_mib"]
        verdict = "PASS" if mib <= 40 else "FAIL"
        if verdict == "FAIL":
            report.failed.append(f"SSH memory with {count} players")
        print(f"{f'SSH: PSS per connected player ({count} at once)':<50} {mib:>7.1f} MiB  "
              f"{'':<26} {'':>7}  {'<= 40 MiB':<9} {verdict}", flush=True)
    try:
        asyncio.run(_ssh(report, folder, env, players, keystrokes))
    except Exception as e:  # noqa: BLE001 - the other lines still count
        print(f"SSH typing: not measured ({type(e).__name__}: {e})")


async def _ssh(report: Report, folder: Path, env: dict[str, str], players: int,
               keystrokes: int) -> None:
    import ssh_players

    table = ssh_players.Table(folder / "ssh-typing", env, players)
    try:
        await table.open()
        seated = await asyncio.gather(*(table.sit(name, ssh_players.LISTED)
                                        for name in table.names))
        await asyncio.sleep(1.0)  # let every child settle after its first frames

        async def type_keys(seat: ssh_players.Seat) -> list[float]:
            term = seat.term
            latencies = []
            for i in range(keystrokes):
                mark = len(term.raw)
                term.changed.clear()
                t0 = time.perf_counter()
                seat.chan.write(b"\x1b[B" if i % 2 == 0 else b"\x1b[A")  # down, up
                async with asyncio.timeout(10):
                    while len(term.raw) == mark:
                        await term.changed.wait()
                        term.changed.clear()
                latencies.append(time.perf_counter() - t0)
                await asyncio.sleep(0.05)  # a fast typist, not a flood
            return latencies

        results = await asyncio.gather(*(type_keys(seat) for seat in seated))
        latencies = sorted(t for r in results for t in r)
        p95 = latencies[int(0.95 * (len(latencies) - 1))]
        report.line(f"SSH: keystroke to redraw, p95 ({players} players typing)", p95)
        report.line(f"SSH: keystroke to redraw, median ({players} players typing)",
                    statistics.median(latencies))
        for seat in seated:
            seat.conn.close()
    finally:
        await table.close()  # the players' connections end with the server


# ---------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="start-up runs of each app")
    parser.add_argument("--records", type=int, default=300, help="steps recorded per game")
    parser.add_argument("--no-ssh", action="store_true", help="skip the SSH players")
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--keystrokes", type=int, default=20, help="per SSH player")
    parser.add_argument("--only", help="run only the lines whose name contains this")
    parser.add_argument("--pg", default=os.environ.get("WARLEDGER_TEST_PG"),
                        help="PostgreSQL URL for the live-refresh line (default: "
                             "$WARLEDGER_TEST_PG)")
    parser.add_argument("--no-suite", action="store_true", help="skip timing `uv run pytest`")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="warledger-bench-") as scratch:
        folder = Path(scratch)
        # Every process keeps its bytecode, as Python does unless told not to: an installed
        # warledger has its modules compiled (uv and pip compile at install) as Textual and
        # SQLAlchemy have theirs. This machine sets PYTHONDONTWRITEBYTECODE, under which each
        # start from the checkout would compile warledger's modules again.
        env = {k: v for k, v in os.environ.items()
               if k not in ("COLUMNS", "LINES", "TEXTUAL", "TMUX", "STY", "COLORTERM",
                            "PYTHONDONTWRITEBYTECODE")}
        env.update({"TERM": "xterm-256color", "XDG_DATA_HOME": str(folder / "xdg"),
                    "WARLEDGER_DB": str(folder / "default.db"),
                    "PYTHONPYCACHEPREFIX": str(folder / "bytecode")})
        os.environ.update({"XDG_DATA_HOME": env["XDG_DATA_HOME"],
                           "WARLEDGER_DB": env["WARLEDGER_DB"]})
        report = Report()
        print("(times: start-up and commands, median of the runs; a step recorded, median of "
              f"{args.records}; inside the process, lower quartile of the runs)")
        benches = {
            "start-up": lambda: bench_start_up(report, folder, env, args.runs),
            "as-users start-up": lambda: bench_as_users(report, args.runs),
            "sessions": lambda: bench_sessions(report, folder, env, 15),
            "keys": lambda: bench_keys(report),
            "burst": lambda: bench_burst(report),
            "paint": lambda: bench_paint(report),
            "drafts": lambda: bench_drafts(report),
            "footer": lambda: bench_footer(report),
            "live": lambda: bench_live(report, folder, 40, args.pg),
            "record": lambda: bench_record(report, folder, args.records),
            "open": lambda: bench_open(report, folder, 31),
            "replay": lambda: bench_replay(report, folder, env, 24),
            "league": lambda: bench_league(report, folder, env, 51),
            "replay-many": lambda: bench_replay_many(report, folder, env, 3),
            "ssh": lambda: (print("SSH: not measured (--no-ssh)") if args.no_ssh else
                            bench_ssh(report, folder, env, args.players, args.keystrokes)),
        }
        if not args.no_suite:
            benches["suite"] = lambda: bench_suite(report)
        for name, bench in benches.items():
            if args.only is None or args.only in name:
                bench()
    if report.failed:
        print(f"FAILED: {'; '.join(report.failed)}")
        return 1
    print("every target holds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
