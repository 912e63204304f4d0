"""Memory is bounded (issue 48): a ledger keeps the folds of the games it met last, up to a
ceiling, however many games it folds; a game met again after it left is folded again as it
was."""

from __future__ import annotations

from storage.folds import FOLDS_KEPT
from tests.short_games import risk_night


def test_a_ledger_keeps_the_folds_of_the_games_it_met_last_up_to_a_ceiling(make_ledger):
    writer = make_ledger()
    numbers = [writer.replay(risk_night(["Ana", "Bo", "Cy"][n % 3:] + ["Ana", "Bo", "Cy"][:n % 3]))
               .id for n in range(FOLDS_KEPT + 16)]
    reader = make_ledger()
    first = reader.load(numbers[0])
    for number in numbers[1:]:
        reader.load(number)
    assert len(reader._folds) == FOLDS_KEPT
    last = numbers[-1]
    assert reader.load(last) is reader.load(last)  # the games met last are kept
    again = reader.load(numbers[0])  # met longest ago: folded again, the same game
    assert again is not first and again.report() == first.report()
    assert len(reader._folds) == FOLDS_KEPT
