"""Fold snapshots and resumed timelines: opening a game reads its last state instead of
folding every step, and undo, redo, `steps` and `states` still behave exactly as a game
folded from the start (they fold the past when they need it)."""

from __future__ import annotations

import contextlib
import itertools
import json
import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from rules.errors import RuleError
from rules.session_file import read_session
from rules.soe import SOE
from rules.timeline import Redo, Timeline, Undo, read_step
from storage import ledger as ledger_module
from storage.ledger import Ledger
from storage.snapshots import dump_state, load_state
from storage.tables import FoldSnapshot

DATA = Path(__file__).parent / "data"
FULL_GAME = json.loads((DATA / "soe_full_game.json").read_text(encoding="utf-8"))


def start() -> Timeline:
    sf = read_session({**FULL_GAME, "steps": []})
    return sf.timeline


def resumed(full: Timeline, folds: list[int] | None = None) -> Timeline:
    """`full` as a resumed timeline: only its last state, the past folded on demand."""
    def earlier() -> Timeline:
        if folds is not None:
            folds.append(1)
        return full
    return Timeline.resume(full.rules, full.state, count=full.count, depth=full.depth,
                           can_redo=full.can_redo, earlier=earlier)


MOVES = st.lists(st.sampled_from(["step", "step", "undo", "redo"]), max_size=40)


@settings(max_examples=60, deadline=None)
@given(before=MOVES, after=MOVES)
def test_a_resumed_timeline_goes_on_like_the_full_one(before, after):
    """Undo and redo on either side of the resume point: same states, steps and refusals."""
    steps = itertools.cycle(FULL_GAME["steps"])

    def move(t: Timeline, what: str, step_json) -> Timeline:
        step = Undo() if what == "undo" else Redo() if what == "redo" else read_step(SOE, step_json)
        return t.then(step)

    full = start()
    for what in before:
        with contextlib.suppress(RuleError):
            full = move(full, what, next(steps))
    again = resumed(full)
    for what in after:
        step_json = next(steps)
        outcomes = []
        for t in (full, again):
            try:
                outcomes.append(move(t, what, step_json))
            except RuleError as e:
                outcomes.append(str(e))
        if isinstance(outcomes[0], str):
            assert outcomes[1] == outcomes[0]
            continue
        full, again = outcomes
        assert again.state == full.state and again.count == full.count
        assert again.can_undo == full.can_undo and again.can_redo == full.can_redo
    assert again.steps == full.steps and again.states == full.states


def test_the_past_is_folded_only_when_needed_and_once():
    full = start()
    for step in FULL_GAME["steps"][:5]:
        full = full.then(read_step(SOE, step))
    folds: list[int] = []
    t = resumed(full, folds).then(read_step(SOE, FULL_GAME["steps"][5]))
    assert t.depth == 6 and not folds  # a step on top needs no past
    t = t.then(Undo()).then(Undo())  # back past the resume point: the past is folded
    assert folds == [1] and t.state == full.states[-2]
    assert t.then(Undo()).then(Redo()).state == t.state and folds == [1]


def test_a_snapshot_reads_back_only_rules_values():
    state = start().state
    assert load_state(dump_state(state)) == state
    with pytest.raises(pickle.UnpicklingError, match="not a value of the rules"):
        load_state(pickle.dumps(Path("/")))


def test_a_fresh_ledger_opens_a_game_from_its_snapshot(ledger, monkeypatch):
    data = {**FULL_GAME, "steps": FULL_GAME["steps"][:9]}
    game = ledger.replay(data)
    game = ledger.undo(game.id)
    fresh = Ledger(ledger.engine)
    folded = []
    original = Ledger._fold_steps
    monkeypatch.setattr(Ledger, "_fold_steps", staticmethod(
        lambda *a: folded.append(a[3:]) or original(*a)))
    opened = fresh.load(game.id)
    assert folded == [(10, 10)]  # nothing after the snapshot to fold
    assert opened.state == game.state and opened.timeline.can_redo
    # Redo and undo past the snapshot fold the past, and land where the full fold does.
    redone = fresh.redo(game.id)
    assert redone.state == read_session(data).timeline.state
    back = fresh.undo(game.id)
    back = fresh.undo(game.id)
    assert back.state == read_session({**data, "steps": data["steps"][:7]}).timeline.state
    assert folded[1:] == [(0, 10)]
    assert Ledger(ledger.engine).load(game.id).report().to_json() == back.report().to_json()


def test_a_snapshot_of_other_rules_is_not_believed(ledger, monkeypatch):
    game = ledger.replay(FULL_GAME)
    with ledger.engine.begin() as conn:  # a snapshot that lies, written by "other rules"
        conn.execute(update(FoldSnapshot.__table__).values(
            state=dump_state(start().state), rules_version="other rules"))
    assert Ledger(ledger.engine).load(game.id).state == game.state


def test_a_snapshot_behind_the_steps_is_caught_up(ledger):
    game = ledger.replay({**FULL_GAME, "steps": FULL_GAME["steps"][:4]})
    with ledger.engine.begin() as conn:  # as if older code recorded steps without one
        conn.execute(update(FoldSnapshot.__table__).values(
            seq=2, depth=2, can_redo=False,
            state=dump_state(read_session({**FULL_GAME, "steps": FULL_GAME["steps"][:2]})
                             .timeline.state)))
    opened = Ledger(ledger.engine).load(game.id)
    assert opened.state == game.state and opened.timeline.steps == game.timeline.steps
    assert ledger_module.rules_version()  # the fingerprint of the running rules
