"""Shared fixtures: no test touches the user's real database or data folder, and the
storage and CLI tests run on a temporary SQLite file and, when WARLEDGER_TEST_PG names a
PostgreSQL server, on PostgreSQL too (each test in a schema of its own, dropped after)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import sys
import time
import uuid
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# pytest keeps the test modules it rewrote (for its assertion messages) only where bytecode
# may be written. With PYTHONDONTWRITEBYTECODE set (as on these machines) every test process
# rewrote all of them at every run: 6 of the 10.5 s of CPU a collection took (issue 28).
# Set here, before any test module is imported; pytest_sessionstart below writes the rest.
sys.dont_write_bytecode = False

PG_ENV = "WARLEDGER_TEST_PG"
PG_SKIP = f"no PostgreSQL: set {PG_ENV} to run against one"
PG_SCHEMA_PREFIX = "wltest_"


# Hypothesis on a shared machine: no deadline per example (another process taking the CPU
# made one example of a pure function outlast the default 200 ms) and no "too slow" health
# check; each test keeps its own number of examples. Loaded here, before the test modules
# are imported, so their own @settings start from it.
settings.register_profile("shared-machine", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("shared-machine")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Bytecode written as a user's machine writes it: by the first process that imports a
    module. Where PYTHONDONTWRITEBYTECODE is set (as on these machines) no process writes
    it, and `uv sync` compiles nothing by default: then every warledger, SSH player and
    pseudo-terminal a test starts compiled Textual, SQLAlchemy and the app again, about
    1.3 s each. Unset here, in the controller before its xdist workers start, it holds for
    the workers and every process a test starts. (Compiling all of site-packages up front
    instead took 10 s of CPU in a fresh clone, most of it for modules nothing imports.)"""
    if hasattr(session.config, "workerinput"):
        return
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    _vacuum_the_catalogs()  # what a run killed before its end left


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):
        _vacuum_the_catalogs()


def _vacuum_the_catalogs() -> None:
    """PostgreSQL's catalogs left as the run found them. Each PostgreSQL test makes a schema
    of a dozen tables and drops it: 222,000 dead rows a run in pg_attribute, pg_depend,
    pg_class and the rest. A server whose autovacuum is off (as on these machines, CI's
    too) keeps them all, and every later run reads past them: five quiet runs in series
    took 3:16, 3:20, 3:41, 3:58, 3:51, with 1.65 million dead rows at the end, and the
    first run after a VACUUM of the catalogs 3:07 (issue 28). The controller vacuums the
    catalogs with dead rows as a run starts and as it ends: 0.2 s after a run."""
    url = os.environ.get(PG_ENV)
    if not url:
        return
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    engine = _pg_admin_engine(url)
    try:
        with engine.connect() as conn:
            dead = conn.execute(text(
                "SELECT relname FROM pg_stat_sys_tables "
                "WHERE schemaname = 'pg_catalog' AND n_dead_tup > 0")).scalars().all()
            if dead:  # a catalog it may not vacuum is skipped with a warning, not an error
                conn.exec_driver_sql("VACUUM (SKIP_LOCKED) "
                                     + ", ".join(f"pg_catalog.{name}" for name in dead))
    except SQLAlchemyError as error:  # the tests themselves say what is wrong with the server
        print(f"conftest: the PostgreSQL catalogs were not vacuumed: {error}", file=sys.stderr)
    finally:
        engine.dispose()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Garbage collection at a suite's pace (issue 28). A test process holds what no app
    does (every test module, Hypothesis, pytest and both databases' drivers), and the
    Pilot tests make objects by the hundred thousand: Python's collector, at its defaults,
    took a fifth of their CPU time walking them. What is loaded by now is frozen out of its
    walks, and it runs less often (its first generation at 20,000 objects instead of 700).
    The apps the tests start as processes keep Python's defaults."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


@pytest.fixture(autouse=True)
def _in_english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tests read English unless they choose another language (set_language, or
    WARLEDGER_LANG for a process they start): the machine's own locale decides nothing."""
    from i18n import set_language

    monkeypatch.setenv("WARLEDGER_LANG", "en")
    set_language("en")
    yield
    set_language("en")


@pytest.fixture(autouse=True)
def _collection_left_on() -> Iterator[None]:
    """Each test leaves Python's cyclic collection on (tui/cli/start.py turns it off while
    the app starts): a worker that went on without it kept every cycle, PostgreSQL
    connections among them, until the server refused more clients."""
    yield
    if not gc.isenabled():
        gc.enable()
        pytest.fail("the test left Python's cyclic collection off")


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    """WARLEDGER_DB and the platformdirs data folder point into a temporary folder."""
    home = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("WARLEDGER_DB", str(home / "default-warledger.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg-data"))


# ---------------------------------------------------------------- databases

def _pg_admin_engine(base_url: str):
    from sqlalchemy import create_engine

    return create_engine(base_url, isolation_level="AUTOCOMMIT", pool_pre_ping=True)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _drop_schema(conn, schema: str) -> None:
    conn.exec_driver_sql("SET lock_timeout = '10s'")
    conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(scope="session")
def pg_base_url() -> Iterator[str | None]:
    """The PostgreSQL URL of WARLEDGER_TEST_PG (None when unset). Schemas left behind by an
    earlier run that was killed (its pid is gone) are dropped first."""
    url = os.environ.get(PG_ENV)
    if not url:
        yield None
        return
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    engine = _pg_admin_engine(url)
    with engine.connect() as conn:
        names = conn.execute(text(
            "SELECT schema_name FROM information_schema.schemata "
            "WHERE schema_name LIKE :prefix"), {"prefix": PG_SCHEMA_PREFIX + "%"}).scalars()
        for schema in list(names):
            pid = schema[len(PG_SCHEMA_PREFIX):].split("_", 1)[0]
            if pid.isdigit() and not _pid_alive(int(pid)):
                # Every pytest-xdist worker sweeps: another may have dropped it first.
                with contextlib.suppress(DBAPIError):
                    _drop_schema(conn, schema)
    engine.dispose()
    yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_db_url(request: pytest.FixtureRequest, tmp_path, pg_base_url) -> Iterator[str]:
    """A SQLAlchemy URL of an empty database, for the tests of migrating one (the others
    take db_url): a temporary SQLite file, or a fresh PostgreSQL schema (first on the
    search_path, so the tables and alembic_version land in it)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'warledger-test.db'}"
        return
    if pg_base_url is None:
        pytest.skip(PG_SKIP)
    with _pg_schema(pg_base_url) as url:
        yield url


@contextlib.contextmanager
def _pg_schema(base_url: str) -> Iterator[str]:
    """The URL of a new, empty PostgreSQL schema (first on its search_path), dropped after."""
    from sqlalchemy.engine import make_url

    # The pid first (the sweep in pg_base_url reads it), then the pytest-xdist worker.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    schema = f"{PG_SCHEMA_PREFIX}{os.getpid()}_{worker}_{uuid.uuid4().hex[:12]}"
    admin = _pg_admin_engine(base_url)
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            _drop_schema(conn, schema)
        admin.dispose()


@pytest.fixture(scope="session")
def migrated_file():
    """A SQLite file brought up to date by the real migrations, once per test process
    (tests/at_head.py). A table starts as a copy of it: each new file's six migrations cost
    0.1 s of CPU and, with their commits' syncs, up to a second (issue 28)."""
    from tests import at_head

    return at_head.migrated_file()


@pytest.fixture(scope="session")
def pg_migration(pg_base_url) -> list[tuple[str, object]]:
    """What the real migrations send PostgreSQL on an empty schema, statement by statement,
    recorded once per test process. A test's schema is brought to the current revision by
    sending the same statements again: the migrations' Python side (Alembic loading its
    scripts, comparing, reflecting) took 0.1 s of CPU per test, and a test process makes
    dozens of schemas (issue 28)."""
    if pg_base_url is None:
        return []
    from sqlalchemy import event
    from sqlalchemy.engine import Engine, make_url

    from storage.engine import make_engine

    sent: list[tuple[str, object]] = []
    with _pg_schema(pg_base_url) as url:
        options = make_url(url).query["options"]  # the schema's search_path

        def record(conn, cursor, statement, parameters, context, executemany) -> None:
            if conn.engine.url.query.get("options") == options:  # only this schema's
                sent.append((statement, parameters))

        event.listen(Engine, "before_cursor_execute", record)
        try:
            make_engine(url).dispose()
        finally:
            event.remove(Engine, "before_cursor_execute", record)
    assert any(statement.startswith("UPDATE alembic_version") for statement, _ in sent), sent
    return sent


@pytest.fixture
def db_url(empty_db_url: str, pg_migration) -> str:
    """A SQLAlchemy URL of a database at the current schema revision, made by the real
    migrations: a SQLite file is a copy of migrated_file, a PostgreSQL schema gets the
    statements of pg_migration."""
    from sqlalchemy.engine import make_url

    from tests.at_head import new_database

    url = make_url(empty_db_url)
    if url.get_backend_name() == "sqlite":
        new_database(url.database)
        return empty_db_url
    from sqlalchemy import create_engine

    # The test's own URL: its options put the test's schema first on the search_path.
    engine = create_engine(empty_db_url)
    try:
        with engine.begin() as conn:
            for statement, parameters in pg_migration:
                conn.exec_driver_sql(statement, parameters or None)
    finally:
        engine.dispose()
    return empty_db_url


@pytest.fixture
def engines(empty_db_url: str) -> Iterator[list]:
    """Engines a test opens on its database (see `make`), disposed before the database goes."""
    opened: list = []
    yield opened
    for engine in opened:
        engine.dispose()


@pytest.fixture
def make_ledger(db_url: str, engines: list):
    """A function giving a new Ledger (its own engine and fold cache) on the test database."""
    from storage.engine import make_engine
    from storage.ledger import Ledger

    def make() -> Ledger:
        engine = make_engine(db_url)
        engines.append(engine)
        return Ledger(engine)

    return make


@pytest.fixture
def ledger(make_ledger, db_url: str):
    """A Ledger on the test database (migrated: see db_url)."""
    return make_ledger()


# ---------------------------------------------------------------- the TUI

HOME_LOOK = "games-watch"  # the home screen's look (tui.screens.home.LOOK_GROUP)

@pytest.fixture(autouse=True)
def _pause_waits_for_the_ledger(monkeypatch: pytest.MonkeyPatch) -> None:
    """`pilot.pause()` also waits for the ledger work in flight (tui/plumbing/ledger_calls.py) and the
    drafts on their way (tui/plumbing/drafts.py, at most 5 s), so a test sees the screen as it is once
    the database has answered. A test of waiting itself uses asyncio.sleep instead. The home
    screen's look for other terminals' games (a long poll of up to half a second that
    changes nothing unless another terminal did) is not waited for: a test of it waits on
    what it shows."""
    from textual.pilot import Pilot

    original = Pilot.pause

    async def pause(self, delay: float | None = None) -> None:
        await original(self, delay)
        work = [w for w in self.app.workers if w.group != HOME_LOOK]
        if work:
            await self.app.workers.wait_for_complete(work)
        drafts = getattr(self.app, "drafts", None)  # written by a thread of the app's own
        until = time.monotonic() + 5
        while drafts is not None and drafts.unwritten() and time.monotonic() < until:
            await asyncio.sleep(0.002)
        await original(self)

    monkeypatch.setattr(Pilot, "pause", pause)


@pytest.fixture(autouse=True)
def _no_frame_painted_for_a_terminal_that_is_not_there(
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A headless app (Pilot's) paints every frame for a terminal that is not there: Textual
    renders the screen's changed lines after each refresh and drops them. The Pilot tests
    spent a quarter of their CPU there (issue 28: 48.9 s of user CPU for four Pilot files,
    36.8 s without). Here the top screen's frame is not painted; what a test reads is
    painted afresh from the widgets when it reads it (a screenshot, test_tui_hostile's full
    render, a widget's render_line). The snapshots still paint every frame, as a terminal
    does: a line painted early and kept (a stale cache) is what they catch, and the tests
    through a pseudo-terminal run the real app. Textual's own names: should one go, every
    test fails here rather than slow down."""
    from textual.screen import Screen

    if request.node.path.name == "test_snapshots.py":
        return
    painted = Screen._compositor_refresh

    def refresh(self: Screen) -> None:
        app = self.app
        if not (app.is_headless and self is app.screen and not app.is_inline):
            painted(self)
            return
        self._compositor._dirty_regions.clear()  # what the frame would have painted
        self._dirty_widgets.clear()
        app._update_mouse_over(self)

    monkeypatch.setattr(Screen, "_compositor_refresh", refresh)


@pytest.fixture(autouse=True)
def _pilot_at_a_quicker_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot waits after each key until the process has been idle for one whole window
    (Textual's `wait_for_idle`: 20 ms, longer than the 1/60 s between two screen refreshes),
    and the Pilot tests spent most of their time in those windows (issue 15). Here the screen
    refreshes every 4 ms and the window is 5 ms, still longer than a refresh: a key still
    waits for the screen it changed. Painting every 50 ms was tried (issue 28): 15% less CPU
    in the Pilot tests, and it showed a Tab landing by places one refresh old (fixed in
    tui/plumbing/key_order.py), but in its proof runs one test or two in every other run read the
    screen before a refresh it waited for. These are Textual's own names: should one go,
    every test fails here rather than slow down."""
    import textual._wait
    import textual.screen

    monkeypatch.setattr(textual.screen, "UPDATE_PERIOD", 0.004)
    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.005)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", 0.005 / 20)  # Textual's ratio


@pytest.fixture(autouse=True, scope="session")
def _css_parsed_once_per_process() -> Iterator[None]:
    """Each app parses its stylesheet afresh (Textual keeps what it parsed per app), and the
    suite starts hundreds of apps in each process: an app opened and closed took 0.218 s of
    CPU here, 0.181 s with this (issue 28). What one app parsed serves the next: the same
    CSS from the same place with the same variables (a theme's colours) gives the same
    rules. CSS with errors is kept with its errors, and Textual refuses it as before.
    Textual's own name: should it go, every test fails here rather than slow down."""
    from textual.css.stylesheet import Stylesheet

    original = Stylesheet._parse_rules
    parsed: dict[tuple, list] = {}

    def parse_rules(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        # The variables as a key, worked out once per dict (set_variables gives a new one).
        memo = self.__dict__.get("_variables_key")
        if memo is None or memo[0] is not self._variables:
            memo = self.__dict__["_variables_key"] = (
                self._variables, tuple(sorted(self._variables.items())))
        key = (css, read_from, is_default_rules, tie_breaker, scope, memo[1])
        rules = parsed.get(key)
        if rules is None:
            rules = parsed[key] = original(self, css, read_from, is_default_rules,
                                           tie_breaker, scope)
        return rules

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Stylesheet, "_parse_rules", parse_rules)
        yield


class Table:
    """A SQLite file under the test's tmp_path (made by the `table` fixture as a copy of
    `migrated_file`, or new), the database at one table: `ledger()`
    gives a new Ledger on it (its own engine and fold cache, as another process would have),
    `app()` a WarledgerApp on it, with a Ledger of its own unless one is given."""

    def __init__(self, path) -> None:
        self.url = f"sqlite:///{path}"
        self._engines: list = []

    def ledger(self):
        from storage.engine import make_engine
        from storage.ledger import Ledger

        engine = make_engine(self.url)
        self._engines.append(engine)
        return Ledger(engine)

    def app(self, player: str | None = None, *, ledger=None):
        from tui.app import WarledgerApp

        return WarledgerApp(ledger=ledger or self.ledger(), player=player)

    def close(self) -> None:
        for engine in self._engines:
            engine.dispose()


@pytest.fixture
def table(tmp_path) -> Iterator[Table]:
    """The database at the table and the apps on it (see Table)."""
    from tests.at_head import new_database

    new_database(tmp_path / "table.db")
    opened = Table(tmp_path / "table.db")
    yield opened
    opened.close()
