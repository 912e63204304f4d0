"""Reliability (issue 6): killed processes, racing terminals, garbage input and hostile
database files lose no confirmed step, corrupt nothing and never show a traceback.

Child processes are forked from a server that has imported warledger already (see
tests/reliability/workers.py), so a child is recording within milliseconds and the test
can afford dozens of SIGKILLs; a few runs of the real `python -m tui` check what a
player sees. Tests taking `db_url` run on SQLite and, with WARLEDGER_TEST_PG set, on
PostgreSQL too; where no server answers they skip and say so.
"""

from __future__ import annotations

import copy
import hashlib
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from cli_runner import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pilot_pace import pause_skips_the_live_look, typing, until  # noqa: F401 - a fixture
from reliability import workers
from sqlalchemy import create_engine, event, select, text
from sqlalchemy.engine import make_url

from rules.session_file import read_session
from rules.timeline import read_step
from storage import engine as engine_module
from storage import migrate as migrate_module
from storage.engine import make_engine
from storage.ledger import Ledger, StaleGame
from storage.migrate import current_revision, head_revision, upgrade
from storage.service import BUSY, explain
from storage.tables import GameResult, GameSession, Seat, SeatTotal, Step
from tui.cli.typer_app import app
from tui.games.risk.demo import RISK_DEMO
from tui.games.soe.demo import SOE_DEMO

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
SOE_FILE = DATA / "soe_full_game.json"
RISK_FILE = DATA / "risk_fixed_rounds.json"
INTERNAL = re.compile(r"\b[A-Z]\w*(Error|Exception|Warning)\b|Traceback")
SEED = int(os.environ.get("WARLEDGER_RELIABILITY_SEED", "20261130"))


def sample(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def run_cli(*args: Any, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


def refused(result) -> str:
    """The one line of a refused command: exit 1, no traceback, no Python error name."""
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("warledger: "), lines[0]
    assert not INTERNAL.search(result.stderr + result.stdout), result.stderr
    return lines[0]


def refused_process(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("warledger: ") and not INTERNAL.search(proc.stderr), proc.stderr
    return lines[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def settle(path: Path) -> None:
    """Close what earlier in-process commands left open and fold the WAL into the file, so
    its bytes stay put unless somebody writes."""
    import gc

    gc.collect()
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def sqlite_file(url: str) -> Path:
    return Path(make_url(url).database)


def big_soe_file(extra: int, title: str = "Marathon") -> dict[str, Any]:
    """The full SoE game with `extra` corrections before it: a long file to replay."""
    data = sample(SOE_FILE)
    powers = [p["power"] for p in data["players"]]
    fillers = [{"kind": "adjust", "power": powers[i % len(powers)], "gold": 1,
                "note": f"filler {i}"} for i in range(extra)]
    data["steps"] = fillers + data["steps"]
    data["title"] = title
    return data


# ---------------------------------------------------------------- what is stored

def stored_game(engine, game_id: int, plan: list[dict[str, Any]] | None = None) -> int:
    """Check one stored game and return its head: sequence numbers 1..head without a gap or
    a duplicate, the payloads as planned, and the projection (seat totals, head, status,
    result) equal to a fresh fold of the stored steps."""
    with engine.connect() as db:
        session = db.execute(select(GameSession).where(GameSession.id == game_id)).one()
        steps = db.execute(select(Step.seq, Step.payload).where(Step.session_id == game_id)
                           .order_by(Step.seq)).all()
        setups = db.execute(select(Seat.setup).where(Seat.session_id == game_id)
                            .order_by(Seat.position)).scalars().all()
        totals = dict(db.execute(select(SeatTotal.position, SeatTotal.totals)
                                 .where(SeatTotal.session_id == game_id)).all())
        results = db.execute(select(GameResult.winners).where(GameResult.session_id == game_id)
                             ).scalars().all()
    seqs = [seq for seq, _ in steps]
    assert seqs == list(range(1, len(seqs) + 1)), seqs[:20]
    assert session.head_seq == len(seqs)
    payloads = [payload for _, payload in steps]
    folded = read_session({"format": "warledger/1", "game": session.game,
                           "title": session.title, "settings": session.settings,
                           "players": list(setups), "steps": payloads})
    if plan is not None:  # as planned, in the stored (normalised) form
        assert payloads == [read_step(folded.rules, workers.planned_step(plan, n)).to_json()
                            for n in range(1, len(seqs) + 1)]
    report = folded.rules.report(folded.timeline.state).to_json()
    assert session.status == report["status"]
    by_player = {row["player"]: row for row in report["standings"]}
    assert [totals[i] for i in range(len(setups))] \
        == [by_player[setup["name"]] for setup in setups]
    if report["status"] == "finished":
        assert results == [report["winners"]]
    else:
        assert results == []
    return len(seqs)


def row_counts(engine) -> dict[str, int]:
    with engine.connect() as db:
        return {t: db.execute(text(f"SELECT count(*) FROM {t}")).scalar_one()
                for t in ("game_session", "seat", "step", "seat_total", "game_result",
                          "result_entry", "player")}


def no_orphans(engine) -> None:
    with engine.connect() as db:
        for table in ("seat", "step", "seat_total", "game_result", "draft"):
            orphans = db.execute(text(f"SELECT count(*) FROM {table} WHERE session_id NOT IN "
                                      "(SELECT id FROM game_session)")).scalar_one()
            assert orphans == 0, table


def integrity_ok(url: str) -> None:
    if is_sqlite(url):
        con = sqlite3.connect(sqlite_file(url))
        try:
            assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            con.close()


# ---------------------------------------------------------------- child processes

@pytest.fixture(scope="module")
def mp():
    """Children forked from a server that has warledger imported already."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(workers.PRELOAD)
    warm = ctx.Process(target=time.sleep, args=(0,))  # the server starts (and imports) now
    warm.start()
    warm.join(120)
    return ctx


@pytest.fixture(autouse=True)
def children_ended():
    """A test that fails while its children run (a wait that ran out) ends them: a recorder
    left running would write for ever and slow every test after it."""
    yield
    for child in multiprocessing.active_children():
        child.kill()
        child.join(10)


def told(path: Path) -> list[dict[str, Any]]:
    """What a child reported (a line cut by the kill cannot exist: one write per line)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def wait_for(condition, timeout: float = 30.0, every: float = 0.005) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(every)


def kill(proc) -> bool:
    """SIGKILL the child (if it is still running); True if it was."""
    proc.kill()
    proc.join(10)
    return proc.exitcode == -signal.SIGKILL


class WriterProbe:
    """Is some other connection inside a write transaction right now?"""

    def __init__(self, url: str) -> None:
        self.url = url
        if is_sqlite(url):
            self.con = sqlite3.connect(sqlite_file(url), timeout=0, isolation_level=None)
        else:
            self.engine = create_engine(url, isolation_level="AUTOCOMMIT")
            self.con = self.engine.connect()

    def writing(self) -> bool:
        if is_sqlite(self.url):
            try:
                self.con.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError:
                return True  # the write lock is held
            self.con.execute("ROLLBACK")
            return False
        return bool(self.con.execute(text(
            "SELECT count(*) FROM pg_locks WHERE relation = to_regclass('game_session') "
            "AND mode = 'RowExclusiveLock' AND pid <> pg_backend_pid()")).scalar())

    def close(self) -> None:
        self.con.close()
        if not is_sqlite(self.url):
            self.engine.dispose()


def until_nobody_writes(url: str) -> None:
    """Wait for the write transactions in flight to end: on PostgreSQL, the backend of a
    SIGKILLed child still commits the step whose COMMIT it was sent (or rolls back what it
    was not), a moment after the child is gone."""
    probe = WriterProbe(url)
    try:
        wait_for(lambda: not probe.writing())
    finally:
        probe.close()


# ---------------------------------------------------------------- 1. crash safety

CRASH_ROUNDS = 8


def test_killed_recorders_lose_no_confirmed_step(db_url, make_ledger, mp, tmp_path):
    """Two processes record into a SoE and a Risk game (the games finish and reopen again and
    again through undo/redo); each is SIGKILLed at a random moment, then everything is
    checked, and the next round carries on from what was stored."""
    rng = random.Random(SEED)
    ledger = make_ledger()
    plans = {}
    for path in (SOE_FILE, RISK_FILE):
        data = sample(path)
        game = ledger.create_game(data["game"], data["title"], data["settings"],
                                  data["players"])
        plans[game.id] = data["steps"]
    confirmed = dict.fromkeys(plans, 0)
    figures = Counter()
    for round_ in range(CRASH_ROUNDS):
        children = {}
        for game_id, plan in plans.items():
            out = tmp_path / f"told-{round_}-{game_id}.jsonl"
            child = mp.Process(target=workers.record_loop,
                               args=(db_url, game_id, plan, str(out)))
            child.start()
            children[game_id] = (child, out)
        for _, out in children.values():
            wait_for(lambda out=out: any("seq" in t for t in told(out)))
        order = list(children.values())
        rng.shuffle(order)
        for child, _ in order:
            time.sleep(rng.uniform(0, 0.12))
            assert kill(child), "the recorder died by itself"
        until_nobody_writes(db_url)  # else the next round's recorder may find itself stale
        integrity_ok(db_url)
        check = make_engine(db_url)
        try:
            for game_id, (_, out) in children.items():
                lines = told(out)
                start = lines[0]["started"]
                assert start >= confirmed[game_id]  # nothing confirmed earlier went missing
                last = max([start] + [t["seq"] for t in lines if "seq" in t])
                head = stored_game(check, game_id, plans[game_id])
                assert last <= head <= last + 1, (last, head)
                figures["confirmed"] += last - start
                figures["committed, not yet told"] += head - last
                confirmed[game_id] = last
            no_orphans(check)
        finally:
            check.dispose()
        figures["kills"] += len(children)
    print(f"\n[crash/record {db_url.split(':')[0]}] {dict(figures)}; lost 0")
    assert figures["confirmed"] > 0


REPLAY_STEPS = 600
REPLAY_KILLS = 8


def test_killed_replays_store_a_whole_game_or_nothing(db_url, make_ledger, mp, tmp_path):
    """`warledger replay` of a long file, SIGKILLed at random moments, half of them while its
    transaction is seen holding the write lock: afterwards each file is stored whole or
    not at all, never half."""
    rng = random.Random(SEED + 1)
    data = big_soe_file(REPLAY_STEPS)
    path = tmp_path / "marathon.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    ledger = make_ledger()  # the schema exists before the children start
    engine = ledger.engine
    argv = ["replay", str(path), "--db", db_url, "--json"]
    started = time.monotonic()
    child = mp.Process(target=workers.cli, args=(argv,))
    child.start()
    child.join(120)
    whole_run = time.monotonic() - started
    assert child.exitcode == 0
    games = 1
    figures = Counter()
    probe = WriterProbe(db_url)
    try:
        for n in range(REPLAY_KILLS):
            child = mp.Process(target=workers.cli, args=(argv,))
            child.start()
            if n % 2:
                wait_for(lambda c=child: probe.writing() or not c.is_alive(),
                         timeout=whole_run * 4 + 10, every=0.002)
                figures["killed inside the transaction"] += child.is_alive()
                time.sleep(rng.uniform(0, 0.02))
            else:
                time.sleep(rng.uniform(0.5, 1.3) * whole_run)
            if not kill(child):
                assert child.exitcode == 0
                figures["finished before the kill"] += 1
            wait_for(lambda: not probe.writing())  # see until_nobody_writes
            stored = row_counts(engine)["game_session"]
            assert stored in (games, games + 1)
            figures["stored whole" if stored > games else "stored nothing"] += 1
            games = stored
            integrity_ok(db_url)
            no_orphans(engine)
            ids = [g.id for g in ledger.games()]
            for game_id in ids:
                assert stored_game(engine, game_id, data["steps"]) == len(data["steps"])
            assert row_counts(engine)["step"] == games * len(data["steps"])
    finally:
        probe.close()
    print(f"\n[crash/replay {db_url.split(':')[0]}] {REPLAY_KILLS} kills, "
          f"{len(data['steps'])} steps a file, one run {whole_run:.2f}s: {dict(figures)}")


def test_a_real_recorder_process_killed_anywhere(db_url, make_ledger, tmp_path):
    """The same with a plain `python` process (no fork server): killed, nothing lost."""
    ledger = make_ledger()
    data = sample(SOE_FILE)
    game = ledger.create_game("soe", "plain", data["settings"], data["players"])
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "told.jsonl"
    child = subprocess.Popen([sys.executable, str(Path(workers.__file__)), "record", db_url,
                              str(game.id), str(plan), str(out)], cwd=ROOT)
    try:
        wait_for(lambda: sum("seq" in t for t in told(out)) >= 30, timeout=60)
    finally:
        child.kill()
        child.wait(10)
    last = max(t["seq"] for t in told(out) if "seq" in t)
    integrity_ok(db_url)
    head = stored_game(ledger.engine, game.id, data["steps"])
    assert last <= head <= last + 1


# ---------------------------------------------------------------- 2. concurrency

RACERS = 8
RACE_STEPS = 12


def run_racers(mp, tmp_path, db_url: str, game_id: int | None, create=None):
    go = mp.Event()
    children = []
    for n in range(RACERS):
        out = tmp_path / f"racer-{n}.jsonl"
        child = mp.Process(target=workers.race, args=(db_url, game_id, f"racer{n}", RACE_STEPS,
                                                      str(out), go, create))
        child.start()
        children.append((child, out))
    time.sleep(0.2)  # most of them are waiting at the gate
    go.set()
    for child, out in children:
        child.join(120)
        assert child.exitcode == 0, [t for t in told(out) if "seq" not in t][-5:]
    return [told(out) for _, out in children]


def test_eight_processes_record_into_one_game(db_url, make_ledger, mp, tmp_path):
    ledger = make_ledger()
    data = sample(SOE_FILE)
    game = ledger.create_game("soe", "crowded", data["settings"], data["players"])
    reports = run_racers(mp, tmp_path, db_url, game.id)
    confirmed = [(t["note"], t["seq"]) for lines in reports for t in lines if "seq" in t]
    stale = [t for lines in reports for t in lines if "stale" in t]
    busy = [t["busy"] for lines in reports for t in lines if "busy" in t]
    assert len(confirmed) == RACERS * RACE_STEPS
    assert len({seq for _, seq in confirmed}) == len(confirmed)  # no seq told twice
    head = stored_game(ledger.engine, game.id)
    assert head == len(confirmed)  # nothing lost, nothing extra
    with ledger.engine.connect() as db:
        stored = dict(db.execute(select(text("json_extract(payload, '$.note')")
                                 if is_sqlite(db_url) else text("payload->>'note'"),
                                 Step.seq).where(Step.session_id == game.id)).all())
    assert stored == dict(confirmed)  # each step at the seq its process was told
    # a loser is told plainly and handed the game as it now stands
    assert all(t["stale"].startswith("Another terminal recorded") and t["now"] > t["expected"]
               for t in stale)
    assert set(busy) <= {BUSY}
    gold = ledger.load(game.id).state.empires[data["players"][0]["power"]].gold
    assert gold == data["players"][0]["gold"] + RACERS * RACE_STEPS
    print(f"\n[race/one game {db_url.split(':')[0]}] {len(confirmed)} confirmed, 0 lost, "
          f"{len(stale)} told they were second and retried, {len(busy)} busy retries")


def test_eight_processes_create_and_record_their_own_games(empty_db_url, mp, tmp_path):
    """Eight terminals start on an empty database at once (one migrates, the others wait),
    each creates a game with the same player names, and records into it."""
    data = sample(SOE_FILE)
    reports = run_racers(mp, tmp_path, empty_db_url, None, create=data)
    engine = make_engine(empty_db_url)
    try:
        counts = row_counts(engine)
        assert counts["game_session"] == RACERS
        assert counts["player"] == len(data["players"])  # one row per name, no duplicate
        assert counts["step"] == RACERS * RACE_STEPS
        for lines in reports:
            game_id = next(t["created"] for t in lines if "created" in t)
            assert stored_game(engine, game_id) == RACE_STEPS
            assert [t["seq"] for t in lines if "seq" in t] == list(range(1, RACE_STEPS + 1))
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()


def test_new_players_named_at_once_in_eight_new_games(db_url, make_ledger):
    """Eight terminals create games with the same new player names at the same instant: on
    PostgreSQL their transactions overlap, and the later ones must find the name, not fail."""
    import threading

    ledgers = [make_ledger() for _ in range(RACERS)]
    data = sample(SOE_FILE)
    for attempt in range(3):
        players = [{**p, "name": f"{p['name']} {attempt}"} for p in data["players"]]
        gate, failures = threading.Barrier(RACERS), []

        def create(ledger: Ledger, n: int, players=players, gate=gate, failures=failures):
            gate.wait(30)
            try:
                ledger.create_game("soe", f"table {n}", data["settings"], players)
            except Exception as e:  # noqa: BLE001 - collected and shown below
                failures.append(explain(e))

        threads = [threading.Thread(target=create, args=(ledger, n))
                   for n, ledger in enumerate(ledgers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert failures == []
    counts = row_counts(ledgers[0].engine)
    assert counts["game_session"] == 3 * RACERS
    assert counts["player"] == 3 * len(data["players"])


@contextmanager
def write_lock(url: str) -> Iterator[None]:
    """Another program holding the database's write lock (SQLite) or an exclusive table lock
    (PostgreSQL) for as long as the block lasts."""
    if is_sqlite(url):
        con = sqlite3.connect(sqlite_file(url), isolation_level=None)
        con.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            con.execute("ROLLBACK")
            con.close()
        return
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("LOCK TABLE game_session IN EXCLUSIVE MODE")
            yield
    finally:
        engine.dispose()


def test_a_locked_database_is_told_then_a_retry_works(db_url, make_ledger, monkeypatch,
                                                      tmp_path):
    ledger = make_ledger()
    data = sample(SOE_FILE)
    game = ledger.replay({**data, "steps": data["steps"][:2]})
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setenv("WARLEDGER_BUSY_TIMEOUT_MS", "200")
    short = make_ledger()  # opened with the short timeout
    before = row_counts(ledger.engine)
    with write_lock(db_url):
        began = time.monotonic()
        line = refused(run_cli("replay", path, "--db", db_url))
        assert time.monotonic() - began < 5
        assert BUSY in line and "nothing was stored" in line
        with pytest.raises(Exception) as raised:
            short.record(game.id, data["steps"][2], expected_seq=game.seq)
        assert explain(raised.value) == BUSY
        # reading goes on while another terminal writes (SQLite's WAL)
        if is_sqlite(db_url):
            assert json.loads(run_cli("sessions", "--json", "--db", db_url).stdout)
    assert row_counts(ledger.engine) == before
    # the retry, once the other terminal is done
    assert short.record(game.id, data["steps"][2], expected_seq=game.seq).seq == 3
    assert run_cli("replay", path, "--db", db_url).exit_code == 0


def test_a_locked_database_from_a_real_process(db_url, make_ledger, tmp_path):
    make_ledger()
    path = tmp_path / "game.json"
    path.write_text(SOE_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    env = dict(os.environ, WARLEDGER_BUSY_TIMEOUT_MS="300", NO_COLOR="1")
    env.pop("WARLEDGER_DEBUG", None)
    with write_lock(db_url):
        proc = subprocess.run([sys.executable, "-m", "tui", "replay", str(path), "--db",
                               db_url], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=60)
    assert BUSY in refused_process(proc)


async def test_the_game_screen_tells_a_busy_database_and_enter_retries(tmp_path, monkeypatch):
    """A lock held longer than the screen waits (cut to 0.3 s here) is told, nothing is
    written, and Enter tries again; tests/test_tui_busy.py waits a lock out."""
    import tui.plumbing.ledger_calls
    from tui.app import WarledgerApp

    db = str(tmp_path / "table.db")
    monkeypatch.setenv("WARLEDGER_BUSY_TIMEOUT_MS", "150")
    monkeypatch.setattr(tui.plumbing.ledger_calls, "KEEP_TRYING_FOR", 0.3)
    data = sample(SOE_FILE)
    ledger = Ledger(make_engine(db))
    game = ledger.replay({**data, "steps": data["steps"][:6]})  # war 1: end of war is next
    app = WarledgerApp(db)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        with write_lock(f"sqlite:///{db}"):
            await pilot.press("a")  # all done: end the war
            await pilot.pause()
            message = str(app.screen.query_one("#message").render())
            assert BUSY in message and "nothing was written" in message
            assert ledger.head(game.id) == 6
        await pilot.press("enter")  # the same entry, again
        await pilot.pause()
        assert ledger.head(game.id) == 7
        assert "Recorded" in str(app.screen.query_one("#message").render())


# ---------------------------------------------------------------- 3. bad input

BASES = {"soe file": sample(SOE_FILE), "risk file": sample(RISK_FILE),
         "soe demo": SOE_DEMO, "risk demo": RISK_DEMO}
DEEP = "__deep__"
HUGE = "__huge__"
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
    | st.sampled_from([-1, 0, 10**6, -(10**12), 10**30, 2**63, "", "soe", "risk", HUGE, DEEP]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                   max_size=3),
    max_leaves=6)


def paths(node: Any, at: tuple = ()) -> list[tuple]:
    found = [at]
    if isinstance(node, dict):
        for k, v in node.items():
            found += paths(v, (*at, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found += paths(v, (*at, i))
    return found


def parent_of(doc: Any, path: tuple):
    node = doc
    for key in path[:-1]:
        node = node[key]
    return node


@st.composite
def mangled_files(draw) -> bytes:
    """A valid session file of either game, mangled: wrong types, missing and unknown keys,
    unknown kinds, numbers out of range and huge, duplicated and shuffled steps, deep
    nesting, a cut-off text, or random bytes."""
    if draw(st.integers(0, 12)) == 0:
        return draw(st.binary(max_size=200))
    doc = copy.deepcopy(BASES[draw(st.sampled_from(sorted(BASES)))])
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["replace", "replace", "number", "delete", "unknown key",
                                    "kind", "duplicate", "shuffle"]))
        where = draw(st.sampled_from(paths(doc)[1:]))
        parent, key = parent_of(doc, where), where[-1]
        if how == "replace":
            parent[key] = draw(json_values)
        elif how == "number":
            ints = [p for p in paths(doc)[1:] if type(parent_of(doc, p)[p[-1]]) is int]
            if ints:
                p = draw(st.sampled_from(ints))
                parent_of(doc, p)[p[-1]] = draw(st.sampled_from(
                    [-1, -100, 10**9, 10**30, -(10**30), HUGE, 0.5, "3", True, None]))
        elif how == "delete":
            del parent[key]
        elif how == "unknown key" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
        elif how == "kind" and doc.get("steps") and isinstance(doc["steps"], list):
            step = draw(st.sampled_from(doc["steps"]))
            if isinstance(step, dict):
                step["kind"] = draw(st.sampled_from(
                    ["bribe", "", "undo", "redo", "end_game", "round", "income", "KIND"]))
        elif how in ("duplicate", "shuffle") and isinstance(doc.get("steps"), list) \
                and doc["steps"]:
            steps = doc["steps"]
            if how == "duplicate":
                i = draw(st.integers(0, len(steps) - 1))
                steps.insert(i, copy.deepcopy(steps[i]))
            else:
                doc["steps"] = draw(st.permutations(steps))
    raw = json.dumps(doc)  # NaN and Infinity included, as Python writes them
    raw = raw.replace(f'"{HUGE}"', "9" * draw(st.sampled_from([19, 400, 5000])))
    depth = draw(st.sampled_from([50, 990, 5000, 200_000]))
    raw = raw.replace(f'"{DEEP}"', "[" * depth + "]" * depth)
    if draw(st.integers(0, 8)) == 0:
        raw = raw[:draw(st.integers(0, max(0, len(raw) - 1)))]
    return raw.encode()


@pytest.fixture(scope="module")
def garbage_db(tmp_path_factory) -> Iterator[str]:
    """A SQLite database holding one game, for garbage to bounce off."""
    db = str(tmp_path_factory.mktemp("garbage") / "warledger.db")
    engine = make_engine(db)
    Ledger(engine).replay(sample(RISK_FILE))
    engine.dispose()
    yield db


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.large_base_example, HealthCheck.data_too_large])
@given(raw=mangled_files())
@example(raw=json.dumps(SOE_DEMO).replace('"gold": -2', '"gold": ' + "9" * 5000).encode())
@example(raw=json.dumps(SOE_DEMO).replace('"unrest": 2', '"unrest": ' + "[" * 990 + "]" * 990)
         .encode())
@example(raw=json.dumps(SOE_DEMO).replace('"unrest": 2', '"unrest": ' + "[" * 5000 + "]" * 5000)
         .encode())
@example(raw=json.dumps({**RISK_DEMO, "settings": {**RISK_DEMO["settings"],
                                                   "rounds": float("nan")}}).encode())
@example(raw=json.dumps({**RISK_DEMO, "steps": RISK_DEMO["steps"] * 2}).encode())
@example(raw=b"\xff\xfe\x00garbage")
def test_mangled_session_files_are_refused_in_one_line_and_store_nothing(garbage_db, raw):
    folder = Path(garbage_db).parent
    path = folder / "mangled.json"
    path.write_bytes(raw)
    engine = create_engine(f"sqlite:///{garbage_db}")
    try:
        before = row_counts(engine)
        result = run_cli("replay", path, "--json", "--db", garbage_db)
        after = row_counts(engine)
    finally:
        engine.dispose()
    if result.exit_code == 0:  # the mangling left a valid file (a title dropped, say)
        sf = read_session(json.loads(raw))
        said = json.loads(result.stdout)
        if "already_stored_as" in said:  # a demo's id, stored by an earlier example
            assert sf.uid is not None and after == before
            return
        assert said == sf.rules.report(sf.timeline.state).to_json()
        assert after["game_session"] == before["game_session"] + 1
        assert after["step"] == before["step"] + len(sf.steps)
        return
    line = refused(result)
    assert "mangled.json" in line and "nothing was stored" in line
    assert after == before


GARBAGE_FOR_REAL = {
    "random bytes": bytes(random.Random(SEED).randrange(256) for _ in range(4000)),
    "deep nesting": b'{"format": "warledger/1", "steps": ' + b"[" * 300_000 + b"]" * 300_000
                    + b"}",
}


def test_garbage_through_the_real_command(garbage_db, tmp_path):
    engine = create_engine(f"sqlite:///{garbage_db}")
    before = row_counts(engine)
    env = dict(os.environ, NO_COLOR="1")
    env.pop("WARLEDGER_DEBUG", None)
    running = {}
    for name, raw in GARBAGE_FOR_REAL.items():
        path = tmp_path / f"{name.replace(' ', '-')}.json"
        path.write_bytes(raw)
        running[name] = subprocess.Popen(
            [sys.executable, "-m", "tui", "replay", str(path), "--db", garbage_db],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for name, proc in running.items():
        stdout, stderr = proc.communicate(timeout=60)
        line = refused_process(subprocess.CompletedProcess(proc.args, proc.returncode,
                                                           stdout, stderr))
        assert "nothing was stored" in line, (name, line)
    assert row_counts(engine) == before
    engine.dispose()


@pytest.mark.usefixtures("pause_skips_the_live_look")
async def test_garbage_in_the_grid_and_the_dialogs_writes_no_step(tmp_path):
    from textual.widgets import Input

    from tui.app import WarledgerApp
    from tui.widgets.number_grid import NumberGrid

    db = str(tmp_path / "table.db")
    data = sample(SOE_FILE)
    ledger = Ledger(make_engine(db))
    game = ledger.replay({**data, "steps": data["steps"][:3]})  # war 1: upkeep is next
    app = WarledgerApp(db)

    def message(selector: str = "#message") -> str:
        return str(app.screen.query_one(selector).render())

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        grid = app.screen.query_one(NumberGrid)
        first = grid.row_keys[0]
        await typing(pilot, *"qwkm", "-", "-", "%")  # letters (no row of that name), negatives
        assert grid.value(first, "armies") == 0 and grid.cursor_at == (first, "armies")
        await typing(pilot, "equals_sign", *"1234567")  # huge: refused in words, never cut
        assert grid.cursor_at == (first, "armies")  # `=` keeps the cursor on a longer number
        assert grid.value(first, "armies") == 123
        assert "Ana (France), Armies: at most 999, not 1237" in message()  # the last refused
        await pilot.press("enter")
        await pilot.pause()
        assert "France must pay" in message()
        assert ledger.head(game.id) == 3
        await pilot.press("delete")  # empty again
        assert grid.value(first, "armies") == 0

        async def dialog(key: str, fields: dict[str, str], expected: str | None) -> None:
            await pilot.press(key)
            await pilot.pause()
            for field, typed in fields.items():
                box = app.screen.query_one(f"#{field}", Input)
                box.value = ""
                box.focus()
                if len(typed) > 40:
                    box.insert_text_at_cursor(typed)  # a paste
                elif typed:
                    await typing(pilot, *typed)
                if expected is None:  # letters: the field does not take them
                    assert box.value == "", box.value
            if expected is not None:
                await pilot.press("ctrl+s")
                await pilot.pause()
                assert expected in message("#dialog-message"), message("#dialog-message")
            await pilot.press("escape")
            await pilot.pause()

        head = ledger.head(game.id)
        await dialog("ctrl+x", {"token": "qwé%"}, None)
        await dialog("ctrl+x", {"token": "-5"}, "must be at least 1")
        await dialog("ctrl+x", {"token": "9" * 4400}, "must be a whole number")  # > int's 4300
        await dialog("ctrl+e", {"gold": "", "population": "", "unrest": ""}, "Nothing to correct")
        await dialog("ctrl+e", {"population": "99999999999999999999"}, "population change must be at most 9")
        await dialog("ctrl+e", {"unrest": "-99"}, "cannot take off")
        assert ledger.head(game.id) == head
        assert app.is_running


# ---------------------------------------------------------------- 4. the database itself

def every_command(db: str, session: Path = SOE_FILE) -> list[list[str]]:
    return [["sessions", "--db", db], ["league", "--db", db], ["export", "1", "--db", db],
            ["replay", str(session), "--db", db]]


def assert_refused_everywhere(db: str, says: str) -> None:
    for argv in every_command(db):
        line = refused(run_cli(*argv))
        assert says in line, (argv, line)


def files_next_to(path: Path) -> set[str]:
    return {p.name for p in path.parent.iterdir()}


@pytest.mark.parametrize("content", [b"this is not SQLite at all\n" * 200, b"\x00" * 50,
                                     os.urandom(4096)], ids=["text", "zeros", "random"])
def test_a_file_that_is_not_a_database_is_left_alone(tmp_path, content):
    path = tmp_path / "notes.db"
    path.write_bytes(content)
    assert_refused_everywhere(str(path), "not a warledger database")
    assert path.read_bytes() == content
    assert files_next_to(path) == {"notes.db"}  # not even a journal beside it


def test_another_programs_sqlite_database_is_left_alone(tmp_path):
    path = tmp_path / "budget.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE expense (id INTEGER PRIMARY KEY, amount INTEGER)")
    con.execute("INSERT INTO expense (amount) VALUES (12)")
    con.commit()
    con.close()
    before = digest(path)
    assert_refused_everywhere(str(path), "not a warledger database: it holds other tables "
                                         "(expense)")
    assert digest(path) == before
    assert files_next_to(path) == {"budget.db"}


def test_an_empty_file_becomes_a_warledger_database(tmp_path):
    path = tmp_path / "new.db"
    path.touch()
    assert run_cli("replay", SOE_FILE, "--db", path).exit_code == 0
    assert current_revision(make_engine(str(path))) == head_revision()


@contextmanager
def unprivileged() -> Iterator[None]:
    """Run the block as `nobody` when the tests run as root (root ignores file modes)."""
    if os.geteuid() != 0:
        yield
        return
    import pwd

    nobody = pwd.getpwnam("nobody")
    os.setegid(nobody.pw_gid)
    os.seteuid(nobody.pw_uid)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder anyone may enter (pytest's tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="warledger-ro-"))
    folder.chmod(0o755)
    yield folder
    folder.chmod(0o755)
    shutil.rmtree(folder, ignore_errors=True)


def readable_copy(source: Path, folder: Path) -> Path:
    """A copy of `source` in `folder` that `nobody` may read: the checkout itself may sit
    in a folder only its owner may enter (a clone in /root, say)."""
    copy = folder / source.name
    shutil.copyfile(source, copy)
    copy.chmod(0o644)
    return copy


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_database_is_told_and_left_untouched(open_folder, what):
    path = open_folder / "warledger.db"
    session = readable_copy(SOE_FILE, open_folder)
    assert run_cli("replay", session, "--db", path).exit_code == 0
    run_cli("sessions", "--db", path)  # everything imported before we give up root
    settle(path)
    before = digest(path)
    names = files_next_to(path)
    path.chmod(0o444)
    if what == "folder":
        path.chmod(0o644)
        open_folder.chmod(0o555)
    with unprivileged():
        for argv in every_command(str(path), session):
            line = refused(run_cli(*argv))
            assert "read-only" in line and "nothing was changed" in line, line
    open_folder.chmod(0o755)
    assert digest(path) == before
    assert files_next_to(path) == names


def test_a_database_of_a_newer_warledger_is_refused(db_url, make_ledger):
    ledger = make_ledger()
    ledger.replay(sample(SOE_FILE))
    with ledger.engine.begin() as db:
        db.execute(text("UPDATE alembic_version SET version_num = '9999_from_the_future'"))
    ledger.engine.dispose()
    before = digest(sqlite_file(db_url)) if is_sqlite(db_url) else None
    for argv in every_command(db_url):
        line = refused(run_cli(*argv))
        assert "this database was written by a newer warledger" in line
    if before is not None:
        assert digest(sqlite_file(db_url)) == before
    bare = make_engine(db_url, migrate=False) if not is_sqlite(db_url) else None
    if bare is not None:
        assert current_revision(bare) == "9999_from_the_future"
        bare.dispose()


@pytest.fixture
def full_disk(monkeypatch):
    """Engines made by the CLI and the TUI see a disk with `room` more pages at most
    (SQLite's max_page_count): writes that need more fail with SQLITE_FULL."""
    room = {"pages": 100_000}
    real = engine_module.make_engine

    def limited(db=None, *, migrate=True, bulk=False):
        engine = real(db, migrate=False, bulk=bulk)

        @event.listens_for(engine, "connect")
        def cap(dbapi_connection, _record):
            pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
            dbapi_connection.execute(f"PRAGMA max_page_count = {max(1, pages + room['pages'])}")

        if migrate:
            upgrade(engine)
        return engine

    import storage.service

    monkeypatch.setattr(storage.service, "make_engine", limited)
    return room


def test_a_full_disk_is_told_and_the_file_stays_intact(tmp_path, full_disk):
    path = tmp_path / "warledger.db"
    assert run_cli("replay", RISK_FILE, "--db", path).exit_code == 0
    before = row_counts(create_engine(f"sqlite:///{path}"))
    settle(path)
    bytes_before = digest(path)
    full_disk["pages"] = 0
    big = tmp_path / "marathon.json"
    big.write_text(json.dumps(big_soe_file(400)), encoding="utf-8")
    line = refused(run_cli("replay", big, "--db", path))
    assert "the disk is full; nothing was written" in line, line
    assert digest(path) == bytes_before
    integrity_ok(f"sqlite:///{path}")
    assert row_counts(create_engine(f"sqlite:///{path}")) == before
    # a new database on a full disk: the schema is all there or not at all
    fresh = tmp_path / "fresh.db"
    assert "the disk is full" in refused(run_cli("sessions", "--db", fresh))
    full_disk["pages"] = 100_000
    assert run_cli("replay", big, "--db", path).exit_code == 0
    assert run_cli("sessions", "--db", fresh).exit_code == 0


HOSTILE = {
    "not a database": lambda p: p.write_bytes(b"hello" * 100),
    "someone else's": lambda p: sqlite3.connect(p).execute("CREATE TABLE t (x)").connection
    .commit(),
    "newer": "newer",
    "missing folder": "missing",
}


@pytest.mark.parametrize("case", list(HOSTILE))
async def test_the_tui_starts_and_tells_what_is_wrong_with_the_database(tmp_path, case):
    from textual.widgets import Static

    from tui.app import WarledgerApp

    path = tmp_path / "warledger.db"
    prepare = HOSTILE[case]
    if prepare == "newer":
        make_engine(str(path)).dispose()
        con = sqlite3.connect(path)
        con.execute("UPDATE alembic_version SET version_num = 'zz99'")
        con.commit()
        con.close()
    elif prepare == "missing":
        path = tmp_path / "nowhere" / "warledger.db"
    else:
        prepare(path)
    before = digest(path) if path.exists() else None
    expected = refused(run_cli("sessions", "--db", path)).removeprefix("warledger: ")
    app = WarledgerApp(str(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause(0.1)
        assert expected in str(app.screen.query_one("#empty", Static).render())
        await pilot.press("l")  # another screen that needs the database
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running
    assert (digest(path) if path.exists() else None) == before


async def home_says(db: Path) -> str:
    from textual.widgets import Static

    from tui.app import WarledgerApp

    app = WarledgerApp(str(db))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause(0.1)
        assert app.is_running
        return str(app.screen.query_one("#empty", Static).render())


async def test_the_tui_starts_on_a_read_only_database_or_a_full_disk(open_folder, full_disk,
                                                                   monkeypatch):
    import tui.app

    # The app reads its stylesheet at every start: `nobody` reads a copy.
    css = Path(tui.app.WarledgerApp.CSS_PATH)
    monkeypatch.setattr(tui.app.WarledgerApp, "CSS_PATH", str(readable_copy(css, open_folder)))
    path = open_folder / "warledger.db"
    assert run_cli("replay", SOE_FILE, "--db", path).exit_code == 0
    await home_says(path)  # everything the TUI needs is imported before we give up root
    settle(path)
    before = digest(path)
    path.chmod(0o444)
    with unprivileged():
        said = await home_says(path)
    assert "read-only" in said and "nothing was changed" in said
    path.chmod(0o644)
    assert digest(path) == before
    full_disk["pages"] = 0
    assert "the disk is full" in await home_says(open_folder / "new.db")


# ---------------------------------------------------------------- migrations

def test_migrating_an_empty_database_takes_no_backup(tmp_path):
    path = tmp_path / "warledger.db"
    engine = make_engine(str(path))
    assert current_revision(engine) == head_revision()
    engine.dispose()
    assert not [n for n in files_next_to(path) if ".backup-" in n]


def first_schema_database(path: Path) -> dict[int, dict[str, Any]]:
    """A database at revision 0001 holding games, as the first warledger wrote them: the
    games are recorded by this version in a scratch database, and the columns the first
    schema has are copied over. Returns the report of each game."""
    scratch = path.with_name("scratch.db")
    ledger = Ledger(make_engine(str(scratch)))
    reports = {}
    data = sample(SOE_FILE)
    for game in (ledger.replay(data), ledger.replay(sample(RISK_FILE)),
                 ledger.replay({**data, "title": "half", "steps": data["steps"][:9]})):
        reports[game.id] = game.report().to_json()
    ledger.engine.dispose()
    old = make_engine(str(path), migrate=False)
    upgrade(old, "0001")
    old.dispose()
    con = sqlite3.connect(path)
    con.execute("ATTACH DATABASE ? AS scratch", (str(scratch),))
    tables = [r[0] for r in con.execute("SELECT name FROM main.sqlite_master WHERE type = "
                                        "'table' AND name != 'alembic_version'")]
    for table in tables:
        mine = [r[1] for r in con.execute(f"PRAGMA main.table_info({table})")]
        theirs = {r[1] for r in con.execute(f"PRAGMA scratch.table_info({table})")}
        columns = ", ".join(c for c in mine if c in theirs)
        con.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} "
                    f"FROM scratch.{table}")
    con.commit()
    con.execute("DETACH DATABASE scratch")
    con.close()
    scratch.unlink()
    return reports


def test_a_database_of_the_first_schema_is_brought_to_head_with_its_games(tmp_path):
    path = tmp_path / "warledger.db"
    reports = first_schema_database(path)
    bare = make_engine(str(path), migrate=False)
    assert current_revision(bare) == "0001"
    bare.dispose()
    engine = make_engine(str(path))
    assert current_revision(engine) == head_revision()
    ledger = Ledger(engine)
    for game_id, report in reports.items():
        assert ledger.load(game_id).report().to_json() == report
        stored_game(engine, game_id)
    # and the games go on being played
    half = max(reports)
    data = sample(SOE_FILE)
    assert ledger.record(half, data["steps"][9]).seq == 10
    stored_game(engine, half)
    engine.dispose()
    integrity_ok(f"sqlite:///{path}")
    backups = [n for n in files_next_to(path) if n.startswith("warledger.db.backup-0001-")]
    assert len(backups) == (head_revision() != "0001")
    for name in backups:  # the copy is the database as it was before
        copy_ = sqlite3.connect(path.parent / name)
        assert copy_.execute("SELECT version_num FROM alembic_version").fetchall() == [("0001",)]
        assert copy_.execute("SELECT count(*) FROM game_session").fetchone() == (len(reports),)
        copy_.close()


SECOND_REVISION = '''"""a later schema, for the tests"""
import sqlalchemy as sa
from alembic import op

revision = "0002_test"
down_revision = {down!r}
branch_labels = None
depends_on = None


def upgrade() -> None:
    # recreate: copy game_session, drop it, rename the copy (as SQLite needs for most changes)
    with op.batch_alter_table("game_session", recreate="always") as batch:
        batch.add_column(sa.Column("venue", sa.String(), nullable=True))
    {fail}


def downgrade() -> None:
    with op.batch_alter_table("game_session") as batch:
        batch.drop_column("venue")
'''


@pytest.fixture
def later_schema(tmp_path, monkeypatch):
    """The migrations of this version plus one more, as a later warledger would ship them."""

    base = head_revision()

    def install(fail: bool = False) -> str:
        folder = tmp_path / f"migrations-{'failing' if fail else 'ok'}"
        shutil.copytree(migrate_module.MIGRATIONS, folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
        (folder / "versions" / "0002_test.py").write_text(SECOND_REVISION.format(
            down=base,
            fail='raise RuntimeError("migration broke half-way")' if fail else "pass"))
        monkeypatch.setattr(migrate_module, "MIGRATIONS", folder)
        return "0002_test"

    return install


def test_a_migration_takes_a_backup_first(tmp_path, later_schema, monkeypatch):
    path = tmp_path / "warledger.db"
    engine = make_engine(str(path))
    game = Ledger(engine).replay(sample(SOE_FILE))
    engine.dispose()
    current = head_revision()
    # a migration that breaks half-way leaves the database as it was, and its backup
    later_schema(fail=True)
    with pytest.raises(RuntimeError):
        make_engine(str(path))
    bare = make_engine(str(path), migrate=False)
    assert current_revision(bare) == current
    assert "venue" not in {c["name"] for c in __import__("sqlalchemy").inspect(bare)
                           .get_columns("game_session")}
    bare.dispose()
    integrity_ok(f"sqlite:///{path}")
    # the migration that works
    revision = later_schema()
    engine = make_engine(str(path))
    assert current_revision(engine) == revision
    assert Ledger(engine).load(game.id).report().to_json() == game.report().to_json()
    engine.dispose()
    backups = sorted(n for n in files_next_to(path)
                     if n.startswith(f"warledger.db.backup-{current}-"))
    assert len(backups) == 2  # one before each attempt
    copy_ = sqlite3.connect(path.parent / backups[-1])
    assert copy_.execute("SELECT version_num FROM alembic_version").fetchall() == [(current,)]
    assert copy_.execute("SELECT count(*) FROM step").fetchone()[0] == len(sample(SOE_FILE)
                                                                           ["steps"])
    assert copy_.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    copy_.close()
    # and this version, meeting that later database, refuses it
    monkeypatch.setattr(migrate_module, "MIGRATIONS", Path(migrate_module.__file__)
                        .with_name("migrations"))
    line = refused(run_cli("sessions", "--db", path))
    assert "this database was written by a newer warledger (schema 0002_test)" in line


# ---------------------------------------------------------------- 5. PostgreSQL

def test_every_command_works_on_the_database(db_url, tmp_path):
    """replay, sessions, export (json, csv, to a file), league, demo: SQLite and PostgreSQL."""
    def ok(*argv):
        result = run_cli(*argv, "--db", db_url)
        assert result.exit_code == 0, (argv, result.stderr, result.exception)
        return result.stdout

    report = json.loads(ok("replay", SOE_FILE, "--json"))
    assert report["status"] == "finished"
    ok("replay", RISK_FILE)
    assert [s["game"] for s in json.loads(ok("sessions", "--json"))] == ["risk", "soe"]
    ok("sessions")
    exported = json.loads(ok("export", "1"))
    assert exported["steps"] == sample(SOE_FILE)["steps"]
    assert ok("export", "2", "--format", "csv").count("\n") == 5
    ok("export", "1", "-o", str(tmp_path / "out.json"))
    assert json.loads((tmp_path / "out.json").read_text()) == exported
    assert json.loads(ok("league", "--json"))["standings"]
    ok("league", "--game", "soe")
    ok("demo", "--no-tui")
    assert len(json.loads(ok("sessions", "--json"))) == 4


async def test_the_tui_plays_on_the_database(db_url, make_ledger):
    from tui.app import WarledgerApp
    from tui.games.soe.game import SoeGameScreen

    ledger = make_ledger()
    data = sample(SOE_FILE)
    game = ledger.replay({**data, "steps": data["steps"][:6]})
    app = WarledgerApp(db_url)
    async with app.run_test(size=(120, 40)) as pilot:
        # The home screen lists the games after its first frame (at once only from SQLite).
        await until(pilot, lambda: app.screen.games_listed == 1, "the game listed")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SoeGameScreen)
        await pilot.press("a")  # all done: end of war 1
        await pilot.pause()
        await pilot.press("ctrl+z")
        await pilot.pause()
        await pilot.press("ctrl+y")
        await pilot.pause()
    fresh = make_ledger()
    assert fresh.head(game.id) == 9
    assert [kind for _, kind, _ in fresh.authors(game.id)][-3:] == ["end_war", "undo", "redo"]
    stored_game(fresh.engine, game.id)


def test_a_stale_entry_on_the_database_hands_back_the_new_state(db_url, make_ledger):
    one, two = make_ledger(), make_ledger()
    data = sample(SOE_FILE)
    game = one.create_game("soe", "two terminals", data["settings"], data["players"])
    first = one.record(game.id, data["steps"][0], expected_seq=0)
    with pytest.raises(StaleGame) as stale:
        two.record(game.id, data["steps"][1], expected_seq=0)
    assert stale.value.game.seq == first.seq == 1
    assert "nothing of yours was written" in str(stale.value)
    assert two.record(game.id, data["steps"][1], expected_seq=stale.value.game.seq).seq == 2
