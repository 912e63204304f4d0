"""A club's whole history for the benchmarks of issue 48: 1,000, 10,000 or 50,000 games of
both games (3-6 players from 30 names, 3 groups, two years), on SQLite or PostgreSQL, built
once and kept between runs.

    uv run python tests/benchmarks/records.py 10000 [--pg URL]     # build (or find) it

    from records import records
    url = records(10_000)                 # a SQLite URL in ~/.cache/warledger-bench/
    url = records(10_000, pg=PG_URL)      # a schema of its own in that PostgreSQL database

How it is built fast and still true: a few dozen template games (Risk of fixed rounds, some
with eliminations or a shared win, and Struggle of Empires of three wars, 3-6 players each,
a few still in progress) are replayed through the ledger into a scratch database with
placeholder names. Their stored rows (the game, its seats, steps, seat totals, result and
result entries) are then copied in bulk, each copy with its own players (the placeholders
replaced in every JSON value), id, title, group and moments spread over two years. A copy
is what the ledger would have stored for that game; a game still in progress gets its fold
snapshot as the ledger stores one with each step (storage/snapshots.py), folded by the
ledger once the rows are in (and again when a kept record's were written by other rules: a
change to rules/ retires every snapshot, and a club's next step would write it anew). Everything is inserted with the ledger's
own Core tables, thousands of rows per statement, so 50,000 games take about a minute on
SQLite.

The names include `[b]Ana[/b]` and `Bo[/]`: player text is data wherever it is shown.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

# Bump when what is built changes: a kept database of another version is built again.
VERSION = 3  # 3: a game in progress has its fold snapshot
SIZES = (1_000, 10_000, 50_000)
NAMES = ("[b]Ana[/b]", "Bo[/]", "Cy", "Dana", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit",
         "Lu", "Mo", "Ned", "Oz", "Pia", "Quin", "Ros", "Sam", "Tess", "Ugo", "Vera", "Wes",
         "Xena", "Yves", "Zoe", "Ada", "Ben", "Cleo", "Dov")
GROUPS = ("Our table", "Thursday club", "Cousins")
TITLES = {"risk": ("Risk night", "Conquest", "Friday Risk", "World war"),
          "soe": ("SoE night", "Empires", "Struggle", "Long war")}
END = datetime(2026, 11, 30, 22, 0, tzinfo=UTC)
SPAN = timedelta(days=730)  # two years
COLOURS = ("red", "blue", "green", "yellow", "black", "purple")
SOE_POWERS = ("Austria", "Britain", "France", "Prussia", "Russia", "Spain")
IN_PROGRESS_EVERY = 50  # one game in 50 is still being played
CHUNK = 1_000  # games per insert batch
TABLES = ("game_session", "seat", "step", "seat_total", "game_result", "result_entry")


def cache_dir() -> Path:
    base = os.environ.get("WARLEDGER_BENCH_CACHE") or Path.home() / ".cache" / "warledger-bench"
    path = Path(base)
    path.mkdir(parents=True, exist_ok=True)
    return path


def placeholder(k: int) -> str:
    return f"@P{k}@"


PLACEHOLDER = re.compile(r"@P\d@")


# ---------------------------------------------------------------- the templates

def risk_template(players: int, variant: int, finished: bool) -> dict[str, Any]:
    names = [placeholder(k) for k in range(players)]
    order = names[variant % players:] + names[:variant % players]
    out: list[str] = []
    if variant % 3 == 1 and players > 3:
        out = [order.pop()]
    shared = variant % 4 == 3
    level = 2 if shared else 1
    others = list(range(len(order) - level, 0, -1))
    rest = 42 - sum(others)
    if shared and rest % 2:
        others[0] += 1
        rest -= 1
    held = [rest // level] * level + others
    steps: list[dict[str, Any]] = [{"kind": "eliminate", "player": n, "by": order[0]}
                                   for n in out]
    positions = {n: {"territories": t, "armies": t + 5 + variant, "continents": []}
                 for n, t in zip(order, held, strict=True)}
    steps.append({"kind": "round", "positions": positions})
    if shared and finished:
        steps.append({"kind": "tiebreak", "resolution": "shared"})
    seated = names  # seats keep table order; the eliminated stay seated
    return {"format": "warledger/1", "game": "risk", "title": "template",
            "settings": {"mode": "fixed_rounds", "rounds": 1 if finished else 3},
            "players": [{"name": n, "color": COLOURS[i]} for i, n in enumerate(seated)],
            "steps": steps}


def soe_template(players: int, variant: int, finished: bool) -> dict[str, Any]:
    from tui.games.soe.demo import DEMO_REGIONS

    powers = SOE_POWERS[:players]
    steps: list[dict[str, Any]] = []
    wars = 3 if finished else 1
    for war in range(wars):
        first = powers[(variant + war) % players]
        second = powers[(variant + war + 1) % players]
        grid = {"German States": {first: 3, second: 1}, "India": {first: 2},
                "Baltic": {second: 2}}
        steps += [{"kind": "income", "regions": grid}, {"kind": "upkeep"},
                  {"kind": "population"}, {"kind": "scoring"}]
        if finished:
            steps.append({"kind": "end_war" if war < 2 else "end_game"})
    return {"format": "warledger/1", "game": "soe", "title": "template",
            "settings": {"regions": DEMO_REGIONS},
            "players": [{"name": placeholder(k), "power": p} for k, p in enumerate(powers)],
            "steps": steps}


class Template:
    """One stored game's rows, as copies are made of them."""

    def __init__(self, game: str, players: int, rows: dict[str, list[dict[str, Any]]]):
        self.game = game
        self.players = players
        self.rows = rows
        self.finished = rows["game_session"][0]["status"] == "finished"


def templates() -> list[Template]:
    """The template games, replayed through the ledger into a scratch SQLite database."""
    import tempfile

    from sqlalchemy import select

    from storage.core import ENTRY_T, RESULT_T, SEAT_T, SESSION_T, STEP_T, TOTAL_T
    from storage.service import open_ledger

    made: list[Template] = []
    with tempfile.TemporaryDirectory() as folder:
        ledger = open_ledger(f"sqlite:///{folder}/templates.db")
        for game, build in (("risk", risk_template), ("soe", soe_template)):
            for players in range(3, 7):
                for variant in range(4):
                    for finished in (True, False):
                        if not finished and variant:
                            continue
                        stored = ledger.replay(build(players, variant, finished))
                        sid = stored.id
                        rows: dict[str, list[dict[str, Any]]] = {}
                        with ledger.engine.connect() as conn:
                            def read(table, column, key, conn=conn):
                                return [dict(r._mapping) for r in conn.execute(
                                    select(table).where(column == key))]
                            rows["game_session"] = read(SESSION_T, SESSION_T.c.id, sid)
                            rows["seat"] = read(SEAT_T, SEAT_T.c.session_id, sid)
                            rows["step"] = read(STEP_T, STEP_T.c.session_id, sid)
                            rows["seat_total"] = read(TOTAL_T, TOTAL_T.c.session_id, sid)
                            rows["game_result"] = read(RESULT_T, RESULT_T.c.session_id, sid)
                            rows["result_entry"] = (
                                read(ENTRY_T, ENTRY_T.c.result_id, rows["game_result"][0]["id"])
                                if rows["game_result"] else [])
                            names = {r.id: r.name for r in conn.execute(
                                select(*ledger_players()))}
                        for seat in rows["seat"]:
                            seat["player"] = names[seat["player_id"]]
                        for entry in rows["result_entry"]:
                            entry["player"] = names[entry["player_id"]]
                        made.append(Template(game, players, rows))
        ledger.engine.dispose()
    return made


def ledger_players():
    from storage.core import PLAYER_T

    return PLAYER_T.c.id, PLAYER_T.c.name


def renamed(value: Any, names: dict[str, str]) -> Any:
    """`value` (a JSON value) with every placeholder, as a key or a string, replaced."""
    if isinstance(value, str):  # a name, or names joined ("@P0@, @P1@": a shared lead)
        return PLACEHOLDER.sub(lambda m: names[m.group()], value) if "@P" in value else value
    if isinstance(value, dict):
        return {renamed(k, names): renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    return value


# ---------------------------------------------------------------- building

def build(url: str, games: int, seed: int = 48) -> None:
    """Store `games` games into the (empty, migrated) database at `url`."""
    from sqlalchemy import func, insert, select, update

    from storage.core import (
        ENTRY_T,
        GROUP_T,
        PLAYER_T,
        RESULT_T,
        SEAT_T,
        SESSION_T,
        STEP_T,
        TOTAL_T,
        VERSION_T,
    )
    from storage.engine import make_engine

    rng = random.Random(seed)
    kinds = templates()
    finished = [t for t in kinds if t.finished]
    playing = [t for t in kinds if not t.finished]
    engine = make_engine(url)
    with engine.begin() as conn:
        if conn.execute(select(func.count()).select_from(SESSION_T)).scalar_one():
            raise SystemExit(f"{url} already holds games")
        known = {r.name: r.id for r in conn.execute(select(GROUP_T.c.id, GROUP_T.c.name))}
        for name in GROUPS:
            if name not in known:
                known[name] = conn.execute(insert(GROUP_T).values(
                    name=name, created_at=END - SPAN - timedelta(days=1))
                    .returning(GROUP_T.c.id)).scalar_one()
        group_ids = [known[name] for name in GROUPS]
        conn.execute(insert(PLAYER_T), [{"id": i + 1, "name": n} for i, n in enumerate(NAMES)])
    player_id = {n: i + 1 for i, n in enumerate(NAMES)}
    # Moments: games spread over two years, in order of their ids (a club plays on).
    starts = sorted(END - SPAN + timedelta(seconds=rng.uniform(0, SPAN.total_seconds()))
                    for _ in range(games))
    seat_id = step_id = result_id = entry_id = 0
    table_of = {"game_session": SESSION_T, "seat": SEAT_T, "step": STEP_T,
                "seat_total": TOTAL_T, "game_result": RESULT_T, "result_entry": ENTRY_T}
    for at in range(0, games, CHUNK):
        batch: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
        for i in range(at, min(at + CHUNK, games)):
            sid = i + 1
            template = rng.choice(playing if i % IN_PROGRESS_EVERY == IN_PROGRESS_EVERY - 1
                                  else finished)
            group = group_ids[rng.randrange(3)]
            people = rng.sample(NAMES, template.players)
            names = {placeholder(k): n for k, n in enumerate(people)}
            start = starts[i]
            length = timedelta(minutes=rng.randint(60, 300))
            end = start + length
            session = dict(template.rows["game_session"][0])
            session.update(id=sid, title=f"{rng.choice(TITLES[template.game])} {i + 1}",
                           summary=renamed(session["summary"], names), created_at=start,
                           updated_at=end, uid=f"{seed:04x}0000-0000-4000-8000-{sid:012x}",
                           group_id=group, source=None)
            batch["game_session"].append(session)
            for seat in template.rows["seat"]:
                seat_id += 1
                batch["seat"].append({
                    "id": seat_id, "session_id": sid, "player_id": player_id[names[seat["player"]]],
                    "position": seat["position"], "setup": renamed(seat["setup"], names)})
            steps = template.rows["step"]
            for n, step in enumerate(steps):
                step_id += 1
                batch["step"].append({
                    "id": step_id, "session_id": sid, "seq": step["seq"], "kind": step["kind"],
                    "payload": renamed(step["payload"], names), "author": None,
                    "created_at": start + length * (n + 1) / len(steps)})
            for total in template.rows["seat_total"]:
                batch["seat_total"].append({"session_id": sid, "position": total["position"],
                                            "totals": renamed(total["totals"], names)})
            for result in template.rows["game_result"]:
                result_id += 1
                batch["game_result"].append({**result, "id": result_id, "session_id": sid,
                                             "winners": renamed(result["winners"], names),
                                             "finished_at": end})
                for entry in template.rows["result_entry"]:
                    entry_id += 1
                    row = {k: v for k, v in entry.items() if k != "player"}
                    row.update(id=entry_id, result_id=result_id,
                               player_id=player_id[names[entry["player"]]])
                    batch["result_entry"].append(row)
        with engine.begin() as conn:
            for name in TABLES:
                if batch[name]:
                    conn.execute(insert(table_of[name]), batch[name])
    snapshots(url, [i + 1 for i in range(games) if i % IN_PROGRESS_EVERY == IN_PROGRESS_EVERY - 1])
    with engine.begin() as conn:
        # The statistics' cache believes nothing from before these games.
        conn.execute(update(VERSION_T).where(VERSION_T.c.id == 1)
                     .values(version=VERSION_T.c.version + 1))
        if engine.dialect.name == "postgresql":  # ids were given: move the sequences on
            for name in ("player", "game_group", "game_session", "seat", "step",
                         "game_result", "result_entry"):
                conn.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"(SELECT coalesce(max(id), 1) FROM {name}))")
    engine.dispose()


def snapshots(url: str, playing: list[int] | None = None) -> None:
    """The fold snapshot of each game in progress, as the ledger writes one with each step
    (storage/ledger.py): its state after its last step, folded by the ledger. Without
    `playing`: the snapshots of a kept record written again if other rules wrote them (a
    change to rules/ retires every snapshot; a club's next step would write it again)."""
    from sqlalchemy import delete, insert, select

    from storage.core import SNAPSHOT_T
    from storage.service import open_ledger
    from storage.snapshots import dump_state, rules_version

    ledger = open_ledger(url)
    if playing is None:
        with ledger.engine.connect() as conn:
            kept = conn.execute(select(SNAPSHOT_T.c.session_id, SNAPSHOT_T.c.rules_version)
                                .order_by(SNAPSHOT_T.c.session_id)).all()
        if all(version == rules_version() for _sid, version in kept):
            ledger.engine.dispose()
            return
        playing = [sid for sid, _version in kept]
        with ledger.engine.begin() as conn:
            conn.execute(delete(SNAPSHOT_T))
    rows = []
    for sid in playing:
        game = ledger.load(sid)
        rows.append({"session_id": sid, "seq": game.seq, "depth": game.timeline.depth,
                     "can_redo": game.timeline.can_redo, "rules_version": rules_version(),
                     "state": dump_state(game.state)})
    with ledger.engine.begin() as conn:
        if rows:
            conn.execute(insert(SNAPSHOT_T), rows)
    ledger.engine.dispose()


def pg_url(base_url: str, schema: str) -> str:
    from sqlalchemy.engine import make_url

    url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


def records(games: int, *, pg: str | None = None, quiet: bool = False) -> str:
    """The database URL of a record of `games` games, built now unless kept from before.
    SQLite: a file in the cache folder. PostgreSQL (`pg`, a database URL): a schema of its
    own in that database, `warledger_records_v<VERSION>_<games>`."""
    done = cache_dir() / (f"records-v{VERSION}-{games}.done" if pg is None else
                          f"records-v{VERSION}-{games}-pg-{abs(hash_url(pg)):x}.done")
    if pg is None:
        path = cache_dir() / f"records-v{VERSION}-{games}.db"
        url = f"sqlite:///{path}"
        if done.exists() and path.exists():
            snapshots(url)
            return url
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    else:
        from sqlalchemy import create_engine

        schema = f"warledger_records_v{VERSION}_{games}"
        url = pg_url(pg, schema)
        admin = create_engine(pg, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            there = conn.exec_driver_sql(
                "SELECT 1 FROM information_schema.schemata WHERE schema_name = %(s)s",
                {"s": schema}).first()
            if there and done.exists():
                admin.dispose()
                snapshots(url)
                return url
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        admin.dispose()
    began = time.perf_counter()
    if not quiet:
        print(f"building {games} games on {'PostgreSQL' if pg else 'SQLite'}...",
              file=sys.stderr, flush=True)
    build(url, games)
    done.write_text(json.dumps({"games": games, "url": url, "seconds":
                                round(time.perf_counter() - began, 1)}))
    if not quiet:
        print(f"  built in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    return url


def hash_url(url: str) -> int:
    import hashlib

    return int(hashlib.sha256(url.encode()).hexdigest()[:12], 16)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--pg", default=None, help="a PostgreSQL database URL")
    args = parser.parse_args(argv)
    for games in args.games:
        print(records(games, pg=args.pg))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
