"""Each Risk step told as the table would say it, for the game's history:
"Round 4: Cy eliminated by Ana", "Round 3 closed: Ana 16 territories, 40 armies; ...".

A line names the round, the players, and what the step changed, read from the states
before and after it (the fold). Secret missions stay secret: a replaced card is counted,
never tied to its holder; a mission is named only when it wins the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from i18n import N_, _, ngettext, pgettext
from rules.risk.board import Position, armies_counted, joined, shown, territories_counted
from rules.risk.missions import mission_text
from rules.risk.scoring import explain_tiebreak, progress_of
from rules.risk.state import RiskState
from rules.ruleset import Words

# How a game was won (the state's `format`), as the end of a line says it.
WON = {
    "world_conquest": N_("{players} wins by world conquest"),
    "secret_mission": N_("{players} wins by secret mission"),
    "concession": N_("{players} wins as the others conceded"),
    "fixed_round": N_("{players} wins on score"),
    "agreed": N_("{players} wins as the players agreed"),
}


def describe(before: RiskState, step: Any, after: RiskState) -> str:
    """What `step` did, in one line of the players' words, from the states around it.

    An undo or a redo is told by where the game now stands and what it changed."""
    return TELLERS[step.kind](before, step, after)


def position(pos: Position, scored: bool = False) -> str:
    """'16 territories, 40 armies, Australia', with the score when the round is scored."""
    said = ", ".join([territories_counted(pos.territories), armies_counted(pos.armies),
                      *map(shown, pos.continents)])
    # TRANSLATORS: a player's fixed-round score and the position it comes from:
    # "score 35 (25 territories, 40 armies, Australia)".
    return _("score {score} ({position})").format(score=pos.score, position=said) \
        if scored else said


def positions(state: RiskState, scored: bool = False) -> str:
    """Every position in the state, in seat order: 'Ana 16 territories, ...; Bo ...'."""
    return "; ".join(f"{name} {position(state.positions[name], scored)}"
                     for name in state.in_game if name in state.positions)


def where(state: RiskState) -> str:
    """'round 4 in play', 'a tie to settle after round 10', or 'the game is over'."""
    if state.finished:
        return _("the game is over")
    if state.phase == "tiebreak":
        return _("a tie to settle after round {round}").format(
            round=progress_of(state).number)
    return _("round {round} in play").format(round=progress_of(state).number)


def result(state: RiskState) -> str:
    """'Ana wins by world conquest', 'Ana and Bo share the victory', 'the game is a draw'."""
    if state.result == "draw":
        return _("the game is a draw")
    players = joined(state.winners)
    if state.result == "shared":
        return _("{players} share the victory").format(players=players)
    won = WON.get(state.format or "")
    # TRANSLATORS: {players} won the game, in a way the history does not know.
    return (_(won) if won else _("{players} wins")).format(players=players)


def outcome(before: RiskState, after: RiskState) -> str:
    """What follows from a step: the winners, or a tie to settle; or ''. Missions it
    replaced are not said: the history is the table's, and a replacement is its holder's
    alone (how many were replaced would say who held what)."""
    said = []
    if after.finished:
        said.append(result(after))
    elif after.phase == "tiebreak" and before.phase != "tiebreak":
        said.append(_("a tie to settle"))  # who is tied, the scores have just said
    return "".join(f"; {s}" for s in said)


def scored(before: RiskState, after: RiskState) -> str:
    """How the top of a scored position is decided, then who wins or that a tie remains."""
    return f": {explain_tiebreak(after.positions)}{outcome(before, after)}"


# ---------------------------------------------------------------- the steps

# A round closed: (of the agreed rounds, extra, neither) x (scored or not).
CLOSED = {
    ("of", False): N_("Round {round} of {rounds} closed"),
    ("of", True): N_("Round {round} of {rounds} closed and scored"),
    ("extra", False): N_("Round {round} (extra) closed"),
    ("extra", True): N_("Round {round} (extra) closed and scored"),
    ("", False): N_("Round {round} closed"),
    ("", True): N_("Round {round} closed and scored"),
}


def round_closed(before: RiskState, step: Any, after: RiskState) -> str:
    agreed = before.settings.rounds if before.settings.mode == "fixed_rounds" else None
    # Past the agreed rounds (a tie played on), or a stalemate's tie played on: extra.
    of = ("of" if agreed and after.round <= agreed
          else "extra" if before.rounds_target else "")
    scores = step.positions is not None and before.scores_this_round
    head = _(CLOSED[of, scores]).format(round=after.round, rounds=agreed)
    if step.missing:
        head += " " + ngettext("(recorded without the part of {seats})",
                               "(recorded without the parts of {seats})",
                               len(step.missing)).format(
            seats=", ".join(before.player_named(n) for n in step.missing),
            count=len(step.missing))
    if step.positions is None:
        return head + outcome(before, after)
    if scores:
        return f"{head}: {positions(after, True)}{scored(before, after)}"
    return f"{head}: {positions(after)}{outcome(before, after)}"


def eliminate(before: RiskState, step: Any, after: RiskState) -> str:
    who, by = before.player_named(step.player), before.player_named(step.by)
    return _("Round {round}: {player} eliminated by {by}").format(
        round=before.round + 1, player=who, by=by) + outcome(before, after)


def concede(before: RiskState, step: Any, after: RiskState) -> str:
    who = before.player_named(step.player)
    if not step.accepted:
        return _("Round {round}: {player} offered to concede; the group refused").format(
            round=before.round + 1, player=who)
    # TRANSLATORS: {to} receives the territories of {player}, who conceded.
    return _("Round {round}: {player} conceded; their territories go to {to}").format(
        round=before.round + 1, player=who, to=before.player_named(step.to)) \
        + outcome(before, after)


def stalemate(before: RiskState, step: Any, after: RiskState) -> str:
    if step.resolution == "fixed_round":  # on the positions given, else the latest
        return _("Round {round}: stalemate, scored: {positions}").format(
            round=before.round + 1, positions=positions(after, True)) + scored(before, after)
    return _("Round {round}: stalemate").format(round=before.round + 1) \
        + outcome(before, after)


def mission_complete(before: RiskState, step: Any, after: RiskState) -> str:
    who = before.player_named(step.player)
    card = before.missions.get(who)
    said = {"round": before.round + 1, "player": who,
            "mission": mission_text(card) if card else ""}
    if step.positions is not None:
        said["position"] = position(after.positions[who])
        if card:
            # TRANSLATORS: {position} is the player's counts: "24 territories, 50 armies".
            line = _("Round {round}: {player} completed the secret mission '{mission}' "
                     "({position})")
        else:
            line = _("Round {round}: {player} completed a secret mission ({position})")
    elif card:
        line = _("Round {round}: {player} completed the secret mission '{mission}'")
    else:
        line = _("Round {round}: {player} completed a secret mission")
    return line.format(**said) + outcome(before, after)


def tiebreak(before: RiskState, step: Any, after: RiskState) -> str:
    tied = joined(before.tied)
    if step.resolution == "shared":
        return _("After round {round}: {players} share the victory").format(
            round=before.round, players=tied)
    return _("After round {round}: {players} play one extra round (round {next}), then the "
             "scores again").format(round=before.round, players=tied, next=before.round + 1)


# ---------------------------------------------------------------- undo and redo

def turned(before: RiskState, step: Any, after: RiskState) -> str:
    """Where an undo or redo leaves the game, and who it puts out, back in, or moves."""
    said = [_("{player} out (eliminated by {by})").format(player=p, by=by)
            for p, by in after.eliminated.items() if p not in before.eliminated]
    back = [p for p in before.eliminated if p not in after.eliminated]
    said += [_("{player} back in the game ({position})").format(
                 player=p, position=position(after.positions[p]))
             if p in after.positions else _("{player} back in the game").format(player=p)
             for p in back]
    said += [f"{name} {position(after.positions[name])}" for name in after.in_game
             if name in after.positions and name not in back
             and before.positions.get(name) != after.positions[name]]
    said += [_("{player}'s position taken back").format(player=name) for name in after.in_game
             if name in before.positions and name not in after.positions]
    if after.finished and not before.finished:
        said.append(result(after))
    if before.finished and not after.finished:
        said.append(_("the result is taken back"))
    return "; ".join([where(after), *said])


TELLERS: dict[str, Callable[[RiskState, Any, RiskState], str]] = {
    "round": round_closed, "eliminate": eliminate, "concede": concede,
    "stalemate": stalemate, "mission_complete": mission_complete, "tiebreak": tiebreak,
    "undo": turned, "redo": turned,
}


def step_named(kind: str) -> str | None:
    """A kind of step as a sentence names it ("Recorded: round."): 'mission complete'."""
    names = {
        "round": pgettext("step", "round"), "eliminate": pgettext("step", "eliminate"),
        "concede": pgettext("step", "concede"), "stalemate": pgettext("step", "stalemate"),
        "mission_complete": pgettext("step", "mission complete"),
        "tiebreak": pgettext("step", "tiebreak"),
    }
    return names.get(kind)


def decided(fmt: str) -> str | None:
    """How a game was decided (Report.format, RULES.md A.5), in words: 'world conquest'."""
    names = {
        "world_conquest": pgettext("how a game was decided", "world conquest"),
        "secret_mission": pgettext("how a game was decided", "secret mission"),
        "concession": pgettext("how a game was decided", "concession"),
        "fixed_round": pgettext("how a game was decided", "fixed round"),
        "agreed": pgettext("how a game was decided", "agreed"),
        "draw": pgettext("how a game was decided", "draw"),
    }
    return names.get(fmt)


def stalemate_decided(fmt: str) -> str | None:
    """How a game ended in a stalemate (Report.stalemate) was decided: 'stalemate, scored'."""
    names = {
        # TRANSLATORS: a stalemate resolved by fixed-round scoring of the position.
        "fixed_round": pgettext("how a game was decided", "stalemate, scored"),
        "agreed": pgettext("how a game was decided", "stalemate, agreed winner"),
        "draw": pgettext("how a game was decided", "stalemate"),
    }
    return names.get(fmt)


def printed(fmt: str) -> str | None:
    """How a game was decided as the command line prints it (the session file's word)."""
    names = {
        "world_conquest": pgettext("result format", "world_conquest"),
        "secret_mission": pgettext("result format", "secret_mission"),
        "concession": pgettext("result format", "concession"),
        "fixed_round": pgettext("result format", "fixed_round"),
        "agreed": pgettext("result format", "agreed"),
        "draw": pgettext("result format", "draw"),
    }
    return names.get(fmt)


WORDS = Words(step=step_named, decided=decided, stalemate=stalemate_decided, printed=printed)
