"""The Risk game screen: close each round, record the events of play, settle a tie.

Secret missions are never shown here: only the reveal dialog (r) shows one, to its holder.
"""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.widgets import Static

from i18n import N_, _, pgettext
from rules.fields import person
from rules.risk import CONTINENTS, RiskState, explain_scores, explain_tiebreak, progress_of
from rules.risk.board import shown
from tui.games.risk.forms import RoundForm, TerritoryForm, TiebreakForm, short
from tui.screens.game import GameScreen
from tui.text.literal import lines, literal, words
from tui.widgets.number_grid import TYPING_HELP
from tui.widgets.phase_bar import PhaseBar
from tui.widgets.totals import TotalsPanel

MODE_NAMES = {"fixed_rounds": N_("fixed rounds"), "conquest": N_("world conquest"),
              "missions": N_("secret missions")}


class RiskGameScreen(GameScreen):
    """A Risk game: phase bar, the round (or tie-break) form, the totals."""

    HELP_TITLE = N_("Risk: game keys")
    BINDINGS = [
        *GameScreen.BINDINGS,
        # Letters type into the grids (they jump to a row), so the game's own keys are
        # ctrl keys: a stray letter never opens a dialog.
        Binding("ctrl+x", "eliminate", N_("Out"), id="eliminate",
                tooltip=N_("A player lost their last territory: who, and to whom")),
        # Less common: in the help and the palette, not the footer.
        Binding("ctrl+k", "concede", N_("Concession"), id="concede", show=False,
                tooltip=N_("A player offers to concede: the group accepts or refuses")),
        Binding("ctrl+d", "stalemate", N_("Stalemate"), id="stalemate", show=False,
                tooltip=N_("Stalled: a draw, fixed-round scoring, or an agreed winner")),
        Binding("ctrl+f", "claim", N_("Claim"), id="claim",
                tooltip=N_("A player reveals a completed (fulfilled) secret mission")),
        Binding("ctrl+u", "reveal", N_("My mission"), id="reveal",
                tooltip=N_("Reveal my mission: shown to its holder until a key is pressed")),
        Binding("ctrl+g", "toggle_entry", N_("By territory / by player"), id="toggle_entry",
                show=False),
        Binding("s", "tiebreak('shared')", N_("Shared"), id="shared",
                tooltip=N_("Shared victory")),
        Binding("e", "tiebreak('extra_round')", N_("Extra round"), id="extra_round",
                tooltip=N_("One extra round")),
    ]

    def __init__(self, game, draft: dict | None = None) -> None:
        super().__init__(game, draft)
        self.entry_mode = "players"
        self._carry: dict[str, dict[str, object]] | None = None

    @property
    def state(self) -> RiskState:
        return self.game.state

    def compose_totals(self) -> ComposeResult:
        # TRANSLATORS: the totals' column headings: keep them as short (Terr.: territories,
        # Cont.: continents held, Out: eliminated, and by whom).
        yield TotalsPanel([_("Player"), _("Colour"), _("Terr."), _("Cont."), _("Armies"),
                           _("Score"), pgettext("eliminated", "Out")],
                          # on a phone the score (its reasons beside the form) tells them
                          pocket_leaves=(1, 3), id="totals-panel")

    def use_draft(self, draft: dict) -> None:
        if draft.get("mode") in ("players", "territories"):
            self.entry_mode = draft["mode"]

    def form_of_step(self, kind: str):
        return RoundForm if kind == "round" else None

    def step_at(self, state: RiskState) -> tuple:
        return (state.round, state.phase)

    # ------------------------------------------------------------ the form

    def form_key(self) -> tuple:
        return (*super().form_key(), self.entry_mode)

    def build_form(self):
        if self.state.phase == "tiebreak":
            return TiebreakForm(self.state, self.keys)
        if self.entry_mode == "territories":
            return TerritoryForm(self.state, self.keys)
        values, self._carry = self._carry, None
        return RoundForm(self.state, self.keys, values=values)

    def by_seat_form(self):
        # A round closed player by player: each position is its player's own.
        if self.state.phase != "tiebreak" and self.entry_mode == "players":
            return RoundForm
        return None

    def seat_totals(self, row: str, after: RiskState | None, cells: dict) -> Text:
        """'Terr. 14 → 16 · Armies 30 → 35 · Aus': the seat's position and what it types."""
        now = self.state.positions.get(row)
        was = (now.territories, now.armies) if now is not None else (0, 0)
        said: list = []
        for name, before, typed in ((_("Terr."), was[0], int(cells.get("territories", 0))),
                                    (_("Armies"), was[1], int(cells.get("armies", 0)))):
            if said:
                said.append(" · ")
            said += [f"{name} {before}"] + ([" → ", (str(typed), "bold")]
                                           if typed != before else [])
        held = [short(c) for c in CONTINENTS if cells.get(c)]
        if held:
            said += [" · ", ", ".join(held)]
        return words(*said)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        state = self.state
        tie = state.phase == "tiebreak"
        missions = state.settings.mode == "missions"
        if action == "tiebreak":
            return tie
        if action == "reveal":
            return missions
        if action == "claim":
            return missions and not tie
        if action in ("eliminate", "concede", "stalemate", "toggle_entry"):
            return not tie
        return super().check_action(action, parameters)

    def preview(self) -> None:
        super().preview()
        form = self.form
        problem = form.not_ready() if form is not None else ""
        if problem and self.is_mounted:
            self.say(problem, "warning")

    # ------------------------------------------------------------ header

    def where(self) -> str:
        state = self.state
        number = progress_of(state).number
        agreed = state.settings.rounds
        if state.settings.mode == "fixed_rounds":
            if number > agreed:
                return _("Round {number} (extra round)").format(number=number)
            return _("Round {number} of {rounds}").format(number=number, rounds=agreed)
        if state.rounds_target is not None:
            return _("Round {number} (extra round, scored)").format(number=number)
        return _("Round {number}").format(number=number)

    def scored_now(self) -> bool:
        """Whether the round being closed is scored (the last agreed or an extra round)."""
        return self.state.scores_this_round

    def show_header(self) -> None:
        state = self.state
        self.sub_title = f"Risk · {_(MODE_NAMES[state.settings.mode])}"
        playing, close = _("Playing"), _("Close round")
        score, tie = pgettext("phase", "Score"), _("Tie to settle")
        steps = [playing, close]
        if state.rounds_target is not None:
            steps += [score, tie]
        current = tie if state.phase == "tiebreak" else (score if self.scored_now() else close)
        self.query_one("#phase-bar", PhaseBar).show(self.where(), steps, current)
        self.query_one("#step-title", Static).update(literal(self.step_title()))
        self.query_one("#step-hint", Static).update(literal(self.step_hint()))
        self.refresh_bindings()

    def step_title(self) -> str:
        state = self.state
        if state.phase == "tiebreak":
            return _("Tie after round {round}: {players}").format(
                round=state.round, players=both(state.tied))
        number = state.round + 1
        if self.scored_now():
            return _("Score round {round}: every player's territories, armies and "
                     "continents").format(round=number)
        return _("Close round {round}: territories, armies and continents held").format(
            round=number)

    def step_hint(self) -> str:
        key = self.key_of
        if self.state.phase == "tiebreak":
            return _("Still tied after territories, continents and armies. The group chooses: "
                     "{shared} shares the victory, {extra_round} plays one more complete round "
                     "(it counts).").format(shared=key("shared"),
                                             extra_round=key("extra_round"))
        if self.entry_mode == "territories":
            by = _("Type each territory's owner (seat number) and armies; counts and "
                   "continents follow. {key}: one row per player.")
        else:
            by = _("Type territories and armies; 1 or x marks a continent held, 0 or x "
                   "clears it. {key}: one row per territory.")
        by = by.format(key=key("toggle_entry"))
        if self.scored_now():
            scores = _("Enter scores the round.")
            return f"{by} {scores}"
        optional = _("Positions are optional this round: leave the grid at 0 and press "
                     "Enter to close it without them.")
        if self.state.settings.mode == "missions":
            events = _("{eliminate} elimination, {concede} concession, {stalemate} "
                       "stalemate, {claim} mission claim, {reveal} reveal my mission.")
        else:
            events = _("{eliminate} elimination, {concede} concession, {stalemate} "
                       "stalemate.")
        events = events.format(eliminate=key("eliminate"), concede=key("concede"),
                               stalemate=key("stalemate"), claim=key("claim"),
                               reveal=key("reveal"))
        return f"{by} {optional} {events}"

    # ------------------------------------------------------------ totals and explanations

    def rows(self, state: RiskState) -> list[list[object]]:
        conceded = {c.player: c.to for c in state.concessions if c.accepted}
        rows = []
        for seat in state.seats:
            name = seat.name
            if name in state.eliminated:
                by = state.eliminated[name]
                # TRANSLATORS: the totals' Out column: who took an eliminated player's
                # territories.
                out = (_("conceded → {player}") if conceded.get(name) == by
                       else _("by {player}")).format(player=by)
                rows.append([name, shown(seat.color), 0, 0, 0, 0, out])
                continue
            pos = state.positions.get(name)
            if pos is None:
                rows.append([name, shown(seat.color), "—", "—", "—", "—", ""])
            else:
                rows.append([name, shown(seat.color), pos.territories, len(pos.continents),
                             pos.armies, pos.score, ""])
        return rows

    def show_totals(self, preview: Any | None) -> None:
        note = ""
        if self.state.settings.mode != "fixed_rounds":
            note = _("Score: fixed-round points, used if a stalemate is scored.")
        self.query_one(TotalsPanel).show(self.rows(self.state),
                                         self.rows(preview) if preview is not None else None,
                                         note)

    def explain(self, preview: Any | None) -> Text | str:
        state = self.state
        if state.phase == "tiebreak":
            return scoring_lines(_("Scores after round {round}").format(round=state.round),
                                 state)
        if preview is not None and (preview.phase == "tiebreak" or (
                preview.finished and preview.format == "fixed_round")):
            return scoring_lines(_("Scoring round {round}").format(round=preview.round),
                                 preview)
        if state.positions and state.settings.mode == "fixed_rounds":
            return scoring_lines(_("Score from the latest position"), state)
        return ""

    def help_text(self) -> str:
        secret = _("Missions stay secret: {key} shows one to its holder until a key is "
                   "pressed.").format(key=self.key_of("reveal"))
        return f"{self.where()}. {self.step_hint()}\n{_(TYPING_HELP)} {secret}"

    # ------------------------------------------------------------ events

    def action_toggle_entry(self) -> None:
        form = self.form
        if isinstance(form, TerritoryForm):
            derived = form.derived()
            if derived is not None:  # the counts typed by territory carry over
                self._carry = {name: {"territories": c["territories"], "armies": c["armies"],
                                      **{k: 1 for k in c["continents"]}}
                               for name, c in derived.items()}
        self.entry_mode = "territories" if self.entry_mode == "players" else "players"
        self.show(self.game)
        if self.entry_mode == "territories":
            said = _("Round entry by territory: type each owner's seat number ({key} "
                     "switches back).")
        else:
            said = _("Round entry by player ({key} switches back).")
        self.say(said.format(key=self.key_of("toggle_entry")), "ok")

    def action_eliminate(self) -> None:
        from tui.games.risk.dialogs import EliminateDialog

        self.app.push_screen(EliminateDialog(self.state, self.app.player), self._event)

    def action_concede(self) -> None:
        from tui.games.risk.dialogs import ConcedeDialog

        self.app.push_screen(ConcedeDialog(self.state, self.app.player), self._event)

    def action_stalemate(self) -> None:
        from tui.games.risk.dialogs import StalemateDialog

        self.app.push_screen(StalemateDialog(self.state), self._event)

    def action_claim(self) -> None:
        from tui.games.risk.dialogs import ClaimDialog

        self.app.push_screen(ClaimDialog(self.state, self.app.player), self._event)

    def action_tiebreak(self, resolution: str) -> None:
        self.record({"kind": "tiebreak", "resolution": resolution},
                    _("Recorded: one extra round, then the scores again.") if
                    resolution == "extra_round" else "")

    def _event(self, step: dict | None) -> None:
        # The round form keeps what was typed (GameScreen.show). A mission the step
        # replaced is told to its holder alone (show), never to the table: how many were
        # replaced would say who holds what.
        if step is not None:
            self.record(step, describe_event(step))

    def show(self, game) -> None:
        before = self.game
        super().show(game)
        if (before is not None and game.seq > before.seq
                and game.timeline.depth > before.timeline.depth):  # depth: no refold
            tell_the_holder(self.app, game.state)

    # ------------------------------------------------------------ the secret missions

    def action_reveal(self) -> None:
        from tui.games.risk.dialogs import WhoseMissionDialog

        player = self.app.player
        if player:
            own = next((s.name for s in self.state.seats
                        if person(s.name) == person(player)), None)
            if own is None:
                self.say(_("You ({player}) have no seat in this game, so no mission to "
                           "see.").format(player=player))
                return
            self.reveal(own)
            return
        self.app.push_screen(WhoseMissionDialog(self.state), self.reveal)

    def reveal(self, player: str | None) -> None:
        from tui.games.risk.dialogs import MissionCardDialog

        if player is None:
            return
        current = self.state.missions.get(player)
        if current is None:
            self.say(_("{player} has no mission card in this game.").format(player=player))
            return
        dealt = self.state.seat(player).mission
        note = ""
        if dealt != current:
            # A Risk game's screen folds a Risk game: each of its states is a RiskState.
            states = cast(list[RiskState], self.game.timeline.states)
            why = [a.text for s in states for a in s.announcements if a.player == player]
            note = why[-1] if why else ""
        self.app.push_screen(MissionCardDialog(player, current, note))

    # ------------------------------------------------------------ palette

    def commands(self):
        yield from super().commands()
        key = self.key_of
        if self.state.phase == "tiebreak":
            yield SystemCommand(_("Settle tie: shared victory"), _(
                "The tied players share it ({key})").format(key=key("shared")),
                lambda: self.action_tiebreak("shared"))
            yield SystemCommand(_("Settle tie: one extra round"), _(
                "Play one more complete round, then score again ({key})").format(
                key=key("extra_round")), lambda: self.action_tiebreak("extra_round"))
        else:
            yield SystemCommand(_("Record: elimination"), _(
                "A player lost their last territory ({key})").format(key=key("eliminate")),
                self.action_eliminate)
            yield SystemCommand(_("Record: concession"), _(
                "A player offers to concede; accepted or refused ({key})").format(
                key=key("concede")), self.action_concede)
            yield SystemCommand(_("Record: stalemate"), _(
                "Draw, score the position, or an agreed winner ({key})").format(
                key=key("stalemate")), self.action_stalemate)
            yield SystemCommand(_("Switch: round entry"), _(
                "By player or by territory ({key})").format(key=key("toggle_entry")),
                self.action_toggle_entry)
        if self.state.settings.mode == "missions":
            if self.state.phase != "tiebreak":
                yield SystemCommand(_("Record: mission claim"), _(
                    "A player reveals a completed mission ({key})").format(key=key("claim")),
                    self.action_claim)
            yield SystemCommand(_("Reveal: my mission"), _(
                "Show one player their secret mission until a key is pressed ({key})").format(
                key=key("reveal")), self.action_reveal)


def scoring_lines(title: str, state: RiskState) -> Text:
    """How each player's fixed-round score adds up, and how the top is decided."""
    return lines(words((title, "bold")),
                 *(f"{name}: {line}" for name, line in explain_scores(state.positions).items()),
                 explain_tiebreak(state.positions))


def both(names) -> str:
    """'Ana and Bo', 'Ana and Bo and Cy': players named together."""
    joined = ""
    for name in names:
        # TRANSLATORS: two players (or more, one after another) named together: "Ana and Bo".
        joined = _("{first} and {second}").format(first=joined, second=name) if joined else name
    return joined


def tell_the_holder(app, state) -> None:
    """A mission just replaced is told to its holder alone: on a terminal seated as that
    player (over SSH). Nobody else hears of it, not even how many were replaced, which
    would say who held what; at a shared screen the holder sees it on their card (my
    mission)."""
    player = app.player
    if not player:
        return
    for note in state.announcements:
        if person(note.player) == person(player):
            app.notify(note.text, title=_("Your mission"), timeout=15)


def describe_event(step: dict) -> str:
    kind = step["kind"]
    if kind == "eliminate":
        return _("Recorded: {player} eliminated by {by}.").format(player=step["player"],
                                                                 by=step["by"])
    if kind == "concede":
        if step["accepted"]:
            return _("Recorded: {player} conceded; their territories and cards go to "
                     "{to}.").format(player=step["player"], to=step["to"])
        return _("Recorded: {player} offered to concede; the group refused.").format(
            player=step["player"])
    if kind == "stalemate":
        if step["resolution"] == "draw":
            return _("Recorded: stalemate, a draw.")
        if step["resolution"] == "agreed":
            return _("Recorded: stalemate, {player} wins as the group agreed.").format(
                player=step["winner"])
        return (_("Recorded: stalemate, scored on the position entered now.")
                if "positions" in step else
                _("Recorded: stalemate, scored on the latest position."))
    if kind == "mission_complete":
        return _("Recorded: mission complete.")
    # TRANSLATORS: {kind} is a step's name as stored (in English), for a kind with no
    # sentence of its own.
    return _("Recorded: {kind}.").format(kind=kind.replace("_", " "))
