"""Each Risk step told as the table would say it, for the game's history:
"Round 4: Cy eliminated by Ana", "Round 3 closed: Ana 16 territories, 40 armies; ...".

A line names the round, the players, and what the step changed, read from the states
before and after it (the fold). Secret missions stay secret: a replaced card is counted,
never tied to its holder; a mission is named only when it wins the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.risk.board import Position
from rules.risk.missions import mission_text
from rules.risk.scoring import explain_tiebreak, progress_of
from rules.risk.state import RiskState, joined

# How a game ended (the state's `format`), as the end of a line says it.
ENDED = {"world_conquest": "by world conquest", "secret_mission": "by secret mission",
         "concession": "as the others conceded", "fixed_round": "on score",
         "agreed": "as the players agreed"}


def describe(before: RiskState, step: Any, after: RiskState) -> str:
    """What `step` did, in one line of the players' words, from the states around it.

    An undo or a redo is told by where the game now stands and what it changed."""
    return TELLERS[step.kind](before, step, after)


def counted(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def position(pos: Position, scored: bool = False) -> str:
    """'16 territories, 40 armies, Australia', with the score when the round is scored."""
    said = (f"{counted(pos.territories, 'territory', 'territories')}, "
            f"{counted(pos.armies, 'army', 'armies')}")
    if pos.continents:
        said += f", {', '.join(pos.continents)}"
    return f"score {pos.score} ({said})" if scored else said


def positions(state: RiskState, scored: bool = False) -> str:
    """Every position in the state, in seat order: 'Ana 16 territories, ...; Bo ...'."""
    return "; ".join(f"{name} {position(state.positions[name], scored)}"
                     for name in state.in_game if name in state.positions)


def where(state: RiskState) -> str:
    """'round 4 in play', 'a tie to settle after round 10', or 'the game is over'."""
    if state.finished:
        return "the game is over"
    if state.phase == "tiebreak":
        return f"a tie to settle after round {progress_of(state).number}"
    return f"round {progress_of(state).number} in play"


def result(state: RiskState) -> str:
    """'Ana wins by world conquest', 'Ana and Bo share the victory', 'the game is a draw'."""
    if state.result == "draw":
        return "the game is a draw"
    if state.result == "shared":
        return f"{joined(state.winners)} share the victory"
    return f"{joined(state.winners)} wins {ENDED.get(state.format, '')}".strip()


def outcome(before: RiskState, after: RiskState) -> str:
    """What follows from a step: the winners, a tie to settle, missions replaced; or ''."""
    said = []
    if after.finished:
        said.append(result(after))
    elif after.phase == "tiebreak" and before.phase != "tiebreak":
        said.append("a tie to settle")  # who is tied, the scores have just said
    if after.announcements:
        said.append(f"{counted(len(after.announcements), 'mission', 'missions')} replaced")
    return "".join(f"; {s}" for s in said)


def scored(before: RiskState, after: RiskState) -> str:
    """How the top of a scored position is decided, then who wins or that a tie remains."""
    return f": {explain_tiebreak(after.positions)}{outcome(before, after)}"


# ---------------------------------------------------------------- the steps

def round_closed(before: RiskState, step: Any, after: RiskState) -> str:
    agreed = before.settings.rounds if before.settings.mode == "fixed_rounds" else None
    if agreed and after.round <= agreed:
        of = f" of {agreed}"
    else:  # past the agreed rounds (a tie played on), or a stalemate's tie played on
        of = " (extra)" if before.rounds_target else ""
    head = f"Round {after.round}{of} closed"
    if step.positions is None:
        return head + outcome(before, after)
    if before.scores_this_round:
        return f"{head} and scored: {positions(after, True)}{scored(before, after)}"
    return f"{head}: {positions(after)}{outcome(before, after)}"


def eliminate(before: RiskState, step: Any, after: RiskState) -> str:
    who, by = before.player_named(step.player), before.player_named(step.by)
    return f"Round {before.round + 1}: {who} eliminated by {by}{outcome(before, after)}"


def concede(before: RiskState, step: Any, after: RiskState) -> str:
    who = before.player_named(step.player)
    if not step.accepted:
        return f"Round {before.round + 1}: {who} offered to concede; the group refused"
    to = before.player_named(step.to)
    return (f"Round {before.round + 1}: {who} conceded; their territories go to {to}"
            f"{outcome(before, after)}")


def stalemate(before: RiskState, step: Any, after: RiskState) -> str:
    head = f"Round {before.round + 1}: stalemate"
    if step.resolution == "fixed_round":  # on the positions given, else the latest
        return f"{head}, scored: {positions(after, True)}{scored(before, after)}"
    return head + outcome(before, after)


def mission_complete(before: RiskState, step: Any, after: RiskState) -> str:
    who = before.player_named(step.player)
    card = before.missions.get(who)
    mission = f"the secret mission '{mission_text(card)}'" if card else "a secret mission"
    counts = f" ({position(after.positions[who])})" if step.positions is not None else ""
    return (f"Round {before.round + 1}: {who} completed {mission}{counts}"
            f"{outcome(before, after)}")


def tiebreak(before: RiskState, step: Any, after: RiskState) -> str:
    tied = joined(before.tied)
    if step.resolution == "shared":
        return f"After round {before.round}: {tied} share the victory"
    return (f"After round {before.round}: {tied} play one extra round (round "
            f"{before.round + 1}), then the scores again")


# ---------------------------------------------------------------- undo and redo

def turned(before: RiskState, step: Any, after: RiskState) -> str:
    """Where an undo or redo leaves the game, and who it puts out, back in, or moves."""
    said = [f"{p} out (eliminated by {by})" for p, by in after.eliminated.items()
            if p not in before.eliminated]
    back = [p for p in before.eliminated if p not in after.eliminated]
    said += [f"{p} back in the game" + (f" ({position(after.positions[p])})"
                                        if p in after.positions else "") for p in back]
    said += [f"{name} {position(after.positions[name])}" for name in after.in_game
             if name in after.positions and name not in back
             and before.positions.get(name) != after.positions[name]]
    said += [f"{name}'s position taken back" for name in after.in_game
             if name in before.positions and name not in after.positions]
    if after.finished and not before.finished:
        said.append(result(after))
    if before.finished and not after.finished:
        said.append("the result is taken back")
    return "; ".join([where(after), *said])


TELLERS: dict[str, Callable[[RiskState, Any, RiskState], str]] = {
    "round": round_closed, "eliminate": eliminate, "concede": concede,
    "stalemate": stalemate, "mission_complete": mission_complete, "tiebreak": tiebreak,
    "undo": turned, "redo": turned,
}
