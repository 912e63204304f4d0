"""Writing a group's plays back (issue 27's export), measured as ratios in one run: the
imported plays read together (Ledger.plays) against the same plays read one game at a
time, as the export did before, on one SQLite file of generated BoardGameGeek plays.

    uv run python tests/benchmarks/plays.py [--plays 5000]

It exits 1 when reading them together is not at least 5 times faster.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import Report, interleaved  # noqa: E402

PLAYERS = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
COLOURS = ("red", "blue", "green", "yellow", "black")


def generated(count: int, seed: int = 27) -> list:
    """Finished Risk plays of 3 to 5 players, one winner, as a BoardGameGeek file gives."""
    from rules.plays import Play, Player

    rng = random.Random(seed)
    start = datetime(2020, 1, 3, 12, tzinfo=UTC)
    plays = []
    for n in range(count):
        names = rng.sample(PLAYERS, rng.randint(3, 5))
        winner = rng.randrange(len(names))
        players = tuple(Player(name, seat, COLOURS[seat], None, seat == winner)
                        for seat, name in enumerate(names))
        plays.append(Play("risk", start + timedelta(days=n), rng.randint(60, 240), True,
                          players, source=f"bgg:{n + 1}"))
    return plays


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plays", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from storage.engine import make_engine
    from storage.ledger import Ledger

    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger(make_engine(f"sqlite:///{Path(folder) / 'plays.db'}"))
        ledger.import_plays(generated(args.plays))
        ids = [g.id for g in ledger.games()]

        def together() -> None:
            assert len(ledger.plays()) == args.plays

        def one_at_a_time() -> None:
            with ledger.engine.connect() as conn:
                assert len([ledger._play(conn, i) for i in ids]) == args.plays

        fast, slow = interleaved(together, one_at_a_time, args.runs, quartile=False)
        report = Report()
        report.line(f"{args.plays} plays read one game at a time", slow)
        report.line(f"{args.plays} plays read together", fast, slow, "one at a time",
                    most=0.2)
        ledger.engine.dispose()
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
