"""The game screen's live side: another terminal's steps shown within a moment, and the
notice when another terminal records the very step typed here (GameScreen mixes it in)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.widgets import Static

from i18n import _, ngettext
from tui.text.formatting import step_name
from tui.text.literal import literal

if TYPE_CHECKING:
    from textual.worker import Worker

    from storage.records import LoadedGame
    from tui.plumbing.ledger_calls import LedgerCalls
    from tui.screens.base import WarledgerScreen
    from tui.screens.seats import Seats
    from tui.widgets.step_form import StepForm

    class LiveBase(Seats, LedgerCalls, WarledgerScreen[None]):
        """For the type checker only: what the live side asks of the game screen
        (tui.screens.game.GameScreen), named here so that neither module imports the
        other's."""

        game: LoadedGame
        _looking: Worker[Any] | None
        _recorder: Worker[Any] | None
        _watch: Any
        _draft: dict[str, Any] | None
        _overtaken: Overtaken | None

        @property
        def recording(self) -> bool: ...

        def form_of_step(self, kind: str) -> type[StepForm] | None: ...

        def shown_name(self, name: str) -> str: ...

        @property
        def form(self) -> StepForm | None: ...

        def show(self, game: Any) -> None: ...

        def say(self, text: str, kind: str = "error") -> None: ...

        def keep_typing(self, before: Any, game: Any) -> None: ...

        def forget_the_past(self, game: Any) -> None: ...

        def schedule_draft(self) -> None: ...

        def focus_form(self) -> None: ...

        def typed(self) -> dict[str, Any] | None: ...
else:
    LiveBase = object


# Another terminal's steps: a look waits (in a worker thread) up to LOOK_WAITS seconds for
# one, on SQLite's data_version or PostgreSQL's notification; a new look starts within
# LIVE_EVERY of the last one's end.
LIVE_EVERY = 0.05
LOOK_WAITS = 0.5


class LiveGame(LiveBase):
    def look_for_changes(self) -> None:
        """Another terminal may have recorded a step: show it within a moment. One look at
        a time, and none while this terminal records (its answer shows the game)."""
        if self.recording or (self._looking is not None and self._looking.is_running):
            return
        session_id, seq = self.game.id, self.game.seq
        # In a step of seats' parts the same look brings the parts as they change.
        phase, shown = self.parts_watched()

        def look(ledger):
            watch = self._watch
            if watch is None:
                watch = self._watch = ledger.watch(session_id)
                if self._gone:  # the screen went while the watch was made: close it here
                    self._watch = None
                    watch.close()
                    return None, None
            return watch.look(seq, phase, shown, wait=LOOK_WAITS)

        def looked(answer) -> None:
            game, parts = answer
            if game is not None:
                self._other_terminal(game)
            elif parts is not None and phase is not None:
                self.parts_arrived(parts, seq, phase)

        self._looking = self.call_ledger(look, looked, group="watch", quiet=True)

    def _other_terminal(self, game) -> None:
        if game is None or game.seq == self.game.seq or self.recording:
            return
        self.arrived(game)
        if not game.state.finished:
            self.notify(_("Another terminal recorded a step: the game is up to date."),
                        timeout=3)

    def arrived(self, game) -> None:
        """Show a game another terminal moved on. Typing for the same step stays in the
        form (show); if they recorded the very step typed here, a notice says who, and which
        of the cells typed here differ from what they recorded."""
        before, form = self.game, self.form
        mine = self.typed() or {}
        pending = form.pending_step() if form is not None and mine.get("values") else None
        self.show(game)
        if (pending is None or game.state.finished
                or self.step_at(before.state) == self.step_at(game.state)):
            return
        kind, session_id = pending["kind"], game.id

        def find(ledger):
            theirs = game.timeline.steps[before.timeline.depth:]  # folded in this thread
            at = next((i for i, s in enumerate(theirs) if s.kind == kind), None)
            if at is None:
                return None
            authors = [a for seq, k, a in ledger.authors(session_id)
                       if seq > before.seq and k == kind]
            return (theirs[at].to_json(), authors[0] if authors else None,
                    before.timeline.depth + at)

        def found(answer: tuple[dict[str, Any], str | None, int] | None) -> None:
            if answer is not None and self.game.seq == game.seq:
                self.tell_overtaken(Overtaken(kind, mine, *answer, seq=game.seq))

        self.call_ledger(find, found, quiet=True)

    def tell_overtaken(self, notice: Overtaken) -> None:
        """The lasting notice: who recorded the step typed here, and what differs."""
        form = self.form_of_step(notice.kind)
        theirs = form.draft_of(notice.step).get("values", {}) if form is not None else {}
        differ = notice.differences(theirs, self.shown_name)
        what, who = step_name(self.game.game, notice.kind), notice.author
        if not differ:
            self.say((_("{player} recorded the {step} first, with the numbers typed here.")
                      if who else
                      _("Another terminal recorded the {step} first, with the numbers typed "
                        "here.")).format(player=who, step=what), "ok")
            return
        self._overtaken = notice
        shown = self.query_one("#overtaken", Static)
        # TRANSLATORS: {differences} lists the cells that differ, with "; " between them;
        # {mine} and {theirs} are keys.
        said = (_("{player} recorded the {step} before yours was confirmed, and it differs "
                  "from what was typed here: {differences}. {mine}: take theirs back and put "
                  "yours in the form; {theirs}: keep theirs.") if who else
                _("Another terminal recorded the {step} before yours was confirmed, and it "
                  "differs from what was typed here: {differences}. {mine}: take theirs back "
                  "and put yours in the form; {theirs}: keep theirs."))
        shown.update(literal(said.format(
            player=who, step=what, differences="; ".join(differ),
            mine=self.key_of("mine_instead"), theirs=self.key_of("dismiss_notice"))))
        shown.display = True
        self.refresh_bindings()

    def action_dismiss_notice(self) -> None:
        self._overtaken = None
        self.query_one("#overtaken").display = False
        self.refresh_bindings()

    def action_mine_instead(self) -> None:
        """Undo the other terminal's step (and what followed it by itself), then put this
        player's entry back in its form: the ordinary undo path, one step at a time."""
        notice = self._overtaken
        if notice is None:
            return
        if self.game.seq != notice.seq:
            self.say(_("The game has moved on since that step: take steps back with {undo}, "
                       "then type yours again.").format(undo=self.key_of("undo")), "error")
            return
        self.action_dismiss_notice()
        session_id, author = self.game.id, self.app.player
        count = self.game.timeline.depth - notice.depth

        def undo(ledger):
            game = None
            seq = notice.seq
            for _time in range(count):
                game = ledger.undo(session_id, expected_seq=seq, author=author)
                seq = game.seq
            return game

        def undone(game) -> None:
            if game is None:
                return
            self._draft = {"seq": game.seq, "phase": game.state.phase, "form": notice.mine}
            self.show(game)
            self.app.release_keys(self, "record")
            self.say(ngettext("Took back {n} step: your entry is in the form; Enter records it.",
                              "Took back {n} steps: your entry is in the form; Enter records "
                              "it.", count).format(n=count), "ok")

        self.app.hold_keys(self, "record")
        self._recorder = self.call_ledger(undo, undone, group="record")


@dataclass(frozen=True)
class Overtaken:
    """A step another terminal recorded while this one was typing it: the kind, what was
    typed here (a form's draft), their step's JSON, who recorded it, the depth of the
    timeline before it, and the game's sequence when it was found."""

    kind: str
    mine: dict[str, Any]
    step: dict[str, Any]
    author: str | None
    depth: int
    seq: int

    def differences(self, theirs: dict[str, dict[str, object]],
                    name: Callable[[str], str] = str) -> list[str]:
        """Each cell typed here that differs from theirs: 'France armies 5 (recorded 3)';
        `name` shows a row's or a column's key."""
        out = []
        for row, cells in (self.mine.get("values") or {}).items():
            for column, value in cells.items():
                recorded = theirs.get(row, {}).get(column, [] if isinstance(value, list)
                                                   else 0)
                if value != recorded:
                    # TRANSLATORS: a cell typed here that differs from the one another
                    # terminal recorded: "France armies 5 (recorded 3)".
                    out.append(_("{row} {column} {value} (recorded {recorded})").format(
                        row=name(row), column=name(column), value=shown(value),
                        recorded=shown(recorded)))
        return out


def shown(value: object) -> str:
    """A cell's value in a sentence: tokens as '2 3', none as 'none'."""
    if isinstance(value, list):
        return " ".join(map(str, value)) or _("none")
    return str(value)
