"""The group's story at scale (issue 25), measured as ratios in one run:

- recomputing the ratings of 10,000 finished 4-6-player games (reading them from the
  database and rating them in date order) against the openskill rate calls alone on the
  same rankings (the same two calls a game: its own game's scope and all games);
- the league and the statistics for 10,000 finished games against 100 (the figures the
  league screen and `warledger stats` show: the standings and, from the cache, ratings,
  head to head and balance), once the cache holds them, and once after a new game.

    uv run python tests/benchmarks/ratings.py [--games 10000]

The games are real: Risk games replayed through the ledger, most decided on fixed rounds
(one scored round), one in four by world conquest with eliminations, 4 to 6 players drawn
from 16. It exits 1 when a target fails.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import Report, interleaved  # noqa: E402

PLAYERS = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu",
           "Mo", "Ned", "Oz", "Pia")
COLOURS = ("red", "blue", "green", "yellow", "black", "pink")


def random_game(rng: random.Random, i: int) -> dict:
    """A finished Risk game: fixed rounds (one scored round), or conquest with
    eliminations (one in four)."""
    names = rng.sample(PLAYERS, rng.randint(4, 6))
    players = [{"name": n, "color": c} for n, c in zip(names, COLOURS, strict=False)]
    if i % 4 == 3:
        winner, *others = names
        rng.shuffle(others)
        steps = [{"kind": "eliminate", "player": p, "by": winner} for p in others]
        return {"format": "warledger/1", "game": "risk", "title": f"Conquest {i}",
                "settings": {"mode": "conquest"}, "players": players, "steps": steps}
    cuts = sorted(rng.sample(range(1, 42), len(names) - 1))
    held = [b - a for a, b in zip([0, *cuts], [*cuts, 42], strict=True)]
    positions = {n: {"territories": t, "armies": t + rng.randint(0, 20), "continents": []}
                 for n, t in zip(names, held, strict=True)}
    return {"format": "warledger/1", "game": "risk", "title": f"Night {i}",
            "settings": {"mode": "fixed_rounds", "rounds": 1}, "players": players,
            "steps": [{"kind": "round", "positions": positions}]}


def stored(folder: Path, name: str, games: int, seed: int = 25):
    """A ledger on a SQLite file holding `games` finished games (a tie on the scored round
    is settled as a shared win, as a table may); a file from an earlier run is kept."""
    from storage.service import open_ledger

    path = folder / f"{name}-{games}.db"
    ledger = open_ledger(str(path))
    if len(ledger.finished_games()) >= games:
        return ledger
    rng = random.Random(seed)
    for i in range(games):
        game = ledger.replay(random_game(rng, i))
        if not game.state.finished:
            ledger.record(game.id, {"kind": "tiebreak", "resolution": "shared"})
    return ledger


def bench_recompute(report: Report, ledger) -> None:
    from openskill.models import PlackettLuce

    from rules.ratings import ALL, rate

    games = sorted(ledger.finished_games(), key=lambda g: g.order)
    rankings = [([f.player for f in g.finishes], [f.place for f in g.finishes], g.game)
                for g in games]
    model = PlackettLuce()

    def rate_calls_alone() -> None:
        now: dict[str, dict] = {}
        for names, ranks, game in rankings:
            for scope in (game, ALL):
                rated = now.setdefault(scope, {})
                got = model.rate([[rated.get(n) or model.rating()] for n in names], ranks=ranks)
                rated.update((n, r) for n, (r,) in zip(names, got, strict=True))

    def recompute() -> None:
        rate(ledger.finished_games())

    ours, alone = interleaved(recompute, rate_calls_alone, 5, quartile=False)
    report.line(f"ratings of {len(games):,} games, read and rated", ours, alone,
                "rate calls alone", most=1.5)


def bench_listing(report: Report, big, small) -> None:
    """The league and the statistics as the screens ask for them, cache warm; then the
    first listing after one more game (the cache recomputed)."""
    def listing(ledger):
        return lambda: (ledger.league(), ledger.stats())

    listing(big)()
    listing(small)()
    t_big, t_small = interleaved(listing(big), listing(small), 21)
    report.line(f"league + stats, {len(big.finished_games()):,} games (cached)", t_big, t_small,
                "100 games", most=2)
    rng = random.Random(7)
    t0 = time.perf_counter()
    big.replay(random_game(rng, 0))
    listing(big)()
    report.line("  ... the first listing after a new game", time.perf_counter() - t0)


async def screen_times(ledger, runs: int) -> dict[str, list[float]]:
    """From the key to the screen shown with its figures: the league (`l`, from home),
    then a player's story (`p`), head to head (`h`) and balance (`b`) from the league."""
    from tui.app import WarledgerApp
    from tui.screens.balance import BalanceScreen
    from tui.screens.league import LeagueScreen
    from tui.screens.player import PlayerScreen
    from tui.screens.rivals import HeadToHeadScreen

    shown: list[str] = []
    methods = {LeagueScreen: "show_league", PlayerScreen: "show", HeadToHeadScreen: "show",
               BalanceScreen: "show"}
    def noted(kind: type, real):
        def wrapped(self, got) -> None:
            real(self, got)
            shown.append(kind.__name__)
        return wrapped

    for kind, name in methods.items():
        setattr(kind, name, noted(kind, getattr(kind, name)))
    times: dict[str, list[float]] = {"league": [], "player": [], "head to head": [],
                                     "balance": []}
    for _ in range(runs):
        app = WarledgerApp(ledger=ledger)
        async with app.run_test(size=(120, 40)) as pilot:
            # The saved games listed first: the home screen's own work is not the league's.
            while not (app.screen.query("#games") and app.screen.query_one("#games").row_count):
                await asyncio.sleep(0.01)
            await pilot.pause()
            for key, what, back in (("l", "league", None), ("p", "player", "escape"),
                                    ("h", "head to head", "escape"),
                                    ("b", "balance", "escape")):
                shown.clear()
                t0 = time.perf_counter()
                await pilot.press(key)
                while not shown:
                    await asyncio.sleep(0.0005)
                await pilot.pause()  # the frame that shows them
                times[what].append(time.perf_counter() - t0)
                if back:
                    await pilot.press(back)
                    await pilot.pause()
    return times


def bench_screens(report: Report, big, small, runs: int = 7) -> None:
    import statistics

    t_big = asyncio.run(screen_times(big, runs))
    t_small = asyncio.run(screen_times(small, runs))
    for what in t_big:
        report.line(f"{what} screen listed, 10,000 games" if what == "league" else
                    f"  {what} screen", statistics.median(t_big[what]),
                    statistics.median(t_small[what]), "100 games", most=2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="keep the databases in this folder (and "
                        "use the ones an earlier run left there)")
    args = parser.parse_args()
    report = Report()
    with tempfile.TemporaryDirectory(prefix="warledger-ratings-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        big = stored(folder, "big", args.games)
        small = stored(folder, "small", 100)
        report.note(f"{args.games:,} + 100 games stored", f"{time.perf_counter() - t0:.0f} s")
        bench_recompute(report, big)
        bench_listing(report, big, small)
        bench_screens(report, big, small)
    return 1 if report.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
