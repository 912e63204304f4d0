"""Watching a game for other terminals' steps (storage/watch.py), on SQLite and PostgreSQL:
a look that waits wakes for a step recorded elsewhere, and ends when the watch closes."""

from __future__ import annotations

import threading
import time

PLAYERS = [{"name": "Ana", "power": "France"}, {"name": "Bo", "power": "Britain"}]
TAX = {"kind": "tax", "power": "France", "unrest": 1}


def test_a_look_sees_only_a_step_recorded_elsewhere(make_ledger):
    here, there = make_ledger(), make_ledger()
    game = here.create_game("soe", "Watched", {}, PLAYERS)
    watch = here.watch(game.id)
    try:
        assert watch.newer_than(game.seq) is None
        there.record(game.id, TAX)
        seen = watch.newer_than(game.seq)
        assert seen is not None and seen.seq == game.seq + 1
        assert watch.newer_than(seen.seq) is None
    finally:
        watch.close()


def test_a_waiting_look_wakes_for_a_step_recorded_elsewhere(make_ledger):
    here, there = make_ledger(), make_ledger()
    game = here.create_game("soe", "Watched", {}, PLAYERS)
    watch = here.watch(game.id)
    try:
        assert watch.newer_than(game.seq, wait=0.3) is None  # nothing happens: None at the end
        timer = threading.Timer(0.3, lambda: there.record(game.id, TAX))
        timer.start()
        seen = watch.newer_than(game.seq, wait=30)  # far longer than the step takes to come
        timer.join()
        assert seen is not None and seen.seq == game.seq + 1
    finally:
        watch.close()


def test_closing_the_watch_ends_a_waiting_look(make_ledger):
    here = make_ledger()
    game = here.create_game("soe", "Watched", {}, PLAYERS)
    watch = here.watch(game.id)
    answers = []
    looking = threading.Thread(target=lambda: answers.append(
        _quietly(watch.newer_than, game.seq, wait=60)))
    looking.start()
    time.sleep(0.3)  # the look is waiting
    watch.close()
    looking.join(timeout=20)
    assert not looking.is_alive()
    assert answers == [None]


def test_a_close_between_a_look_and_its_wait_ends_the_look(make_ledger):
    """The close comes after the look found nothing and before it waits (on a busy
    machine): the look does not go on to wait its whole time."""
    here = make_ledger()
    game = here.create_game("soe", "Watched", {}, PLAYERS)
    watch = here.watch(game.id)
    look = watch._look

    def closed_after(seq):
        found = look(seq)
        watch.close()
        return found

    watch._look = closed_after
    answers = []
    looking = threading.Thread(target=lambda: answers.append(
        watch.newer_than(game.seq, wait=60)))
    looking.start()
    looking.join(timeout=20)
    assert not looking.is_alive()
    assert answers == [None]


def _quietly(look, *args, **kwargs):
    """A look whose connection was closed under it ends with nothing (the screen ignores a
    failed look: it is tried again soon)."""
    try:
        return look(*args, **kwargs)
    except Exception:  # noqa: BLE001 - the closed connection's own error
        return None


# ---------------------------------------------------------------- the saved games' list

SOON = 30  # seconds a look may wait for a change that is coming (it ends when it sees it)


def _ids(games) -> list[int]:
    return [g.id for g in games]


def test_the_list_watch_sees_games_set_up_played_finished_and_deleted_elsewhere(make_ledger):
    here, there = make_ledger(), make_ledger()
    kept = here.create_game("soe", "Kept", {}, PLAYERS)
    watch = here.games_watch()
    try:
        shown = here.games()
        assert watch.changed_from(shown) is None  # nothing moved: nothing to show
        new = there.create_game("soe", "Set up elsewhere", {}, PLAYERS)
        seen = watch.changed_from(shown, wait=SOON)
        assert seen is not None and _ids(seen) == [new.id, kept.id]
        assert watch.changed_from(seen) is None
        there.record(kept.id, TAX)  # played on: it goes first, its line changes
        played = watch.changed_from(seen, wait=SOON)
        assert played is not None and _ids(played) == [kept.id, new.id]
        there.rename_game(new.id, "Renamed elsewhere")
        renamed = watch.changed_from(played, wait=SOON)
        assert renamed is not None and renamed[1].title == "Renamed elsewhere"
        there.delete_game(new.id)
        gone = watch.changed_from(renamed, wait=SOON)
        assert gone is not None and _ids(gone) == [kept.id]
        there.draft(kept.id)  # a read, and a draft saved, change nothing listed
        there.save_draft(kept.id, {"seq": 1, "phase": "income", "form": {}})
        assert watch.changed_from(gone) is None
    finally:
        watch.close()


def test_a_waiting_list_look_wakes_for_a_game_set_up_elsewhere(make_ledger):
    here, there = make_ledger(), make_ledger()
    watch = here.games_watch()
    try:
        assert watch.changed_from([], wait=0.3) is None
        timer = threading.Timer(0.3, lambda: there.create_game("soe", "Later", {}, PLAYERS))
        timer.start()
        seen = watch.changed_from([], wait=30)  # far longer than the game takes to come
        timer.join()
        assert seen is not None and [g.title for g in seen] == ["Later"]
    finally:
        watch.close()


def test_closing_the_list_watch_ends_a_waiting_look(make_ledger):
    here = make_ledger()
    watch = here.games_watch()
    answers = []
    looking = threading.Thread(target=lambda: answers.append(
        _quietly(watch.changed_from, [], wait=60)))
    looking.start()
    time.sleep(0.3)
    watch.close()
    looking.join(timeout=20)
    assert not looking.is_alive()
    assert answers == [None]


def test_a_close_waits_for_a_look_using_the_kept_connection():
    """A look's pragma and a close in another worker thread: the close gives the connection
    back only once the pragma is done (sqlite3 crashed the process, 'Segmentation fault' in
    _data_version, when a connection was closed while another thread used it)."""
    from storage.watch import GamesWatch
    from tests.waiting import wait_for

    in_pragma, done = threading.Event(), threading.Event()

    class Cursor:
        def execute(self, _sql):
            in_pragma.set()
            done.wait(30)
            return self

        def fetchone(self):
            return (1,)

        def close(self):
            pass

    class Kept:
        closed_in_use = closed = False

        def cursor(self):
            return Cursor()

        def close(self):
            self.closed_in_use = in_pragma.is_set() and not done.is_set()
            self.closed = True

    kept = Kept()

    class Engine:
        class dialect:  # noqa: N801
            name = "sqlite"

        def raw_connection(self):
            return kept

    class Ledger:
        engine = Engine()

    watch = GamesWatch(Ledger())

    class SeenLock:
        """The watch's lock, telling when a thread waits for it."""

        def __init__(self) -> None:
            self.lock, self.waiting = threading.Lock(), 0

        def __enter__(self):
            if not self.lock.acquire(blocking=False):
                self.waiting += 1
                self.lock.acquire()
            return self

        def __exit__(self, *exc):
            self.lock.release()

    watch._lock = SeenLock()
    look = threading.Thread(target=watch._moved)
    look.start()
    in_pragma.wait(30)
    closing = threading.Thread(target=watch.close)
    closing.start()
    wait_for(lambda: kept.closed or watch._lock.waiting, what="the close to close or wait")
    done.set()
    look.join(30)
    closing.join(30)
    assert kept.closed and not kept.closed_in_use
