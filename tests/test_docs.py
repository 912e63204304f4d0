"""The README is a front door and the rest lives in docs/ (issue 47): every command a docs/
page shows runs as written.

A page marks what it means to be run: a ```sh block is commands, one a line; a ```console
block is `$ command` lines, each followed by what it prints. Other blocks (the synopsis of
every command, key files, JSON) are text. The commands run here, in the order the page
gives them, on a database of the page's story: twenty finished games (so `export 12 14`
names two), a group "Fridays" with a season "Spring 2026", and the files a page imports.
The hosts (`serve`) run as written up to the moment they would listen: their options are
read, the database opened and the players chosen, and the host is handed what it would serve.
"""

from __future__ import annotations

import re
import shlex
import shutil
from datetime import date
from pathlib import Path

import pytest
from cli_runner import CliRunner

from storage.engine import make_engine
from storage.ledger import Ledger
from tests.short_games import risk_night
from tui.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DATA = Path(__file__).parent / "data"
BLOCK = re.compile(r"^ *```(\w*)\n(.*?)^ *```", re.MULTILINE | re.DOTALL)


def commands(page: Path) -> list[tuple[str, str | None]]:
    """The commands a page shows, each with what it says the command prints (or None)."""
    found: list[tuple[str, str | None]] = []
    for kind, body in BLOCK.findall(page.read_text(encoding="utf-8")):
        lines = [line.strip() for line in body.splitlines() if line.strip()]
        if kind == "sh":
            found += [(line.split("  #")[0].strip(), None) for line in lines]
        elif kind == "console":
            for n, line in enumerate(lines):
                if line.startswith("$ "):
                    said = lines[n + 1] if n + 1 < len(lines) and not lines[n + 1].startswith(
                        "$ ") else None
                    found.append((line[2:], said))
    return found


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 350
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / link).is_file(), link
    assert {p.name for p in DOCS.glob("*.md")} <= set(re.findall(r"docs/([\w-]+\.md)", readme))


def test_every_page_shows_commands_to_run():
    shown = {page.name: commands(page) for page in DOCS.glob("*.md")}
    for page in ("formats.md", "hosting.md", "command-line.md"):
        assert shown[page], f"docs/{page} shows no ```sh or ```console command"


@pytest.fixture
def table(tmp_path, monkeypatch):
    """A folder with the page's database and files, as the current directory."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "warledger.db"
    monkeypatch.setenv("WARLEDGER_DB", str(db))
    ledger = Ledger(make_engine(str(db)))
    ledger.add_group("Fridays")
    ledger.add_season("Fridays", "Spring 2026", date(2000, 1, 1), date(2100, 1, 1))
    for n in range(20):
        ledger.replay(risk_night(["Ana", "Bo", "Cy"][n % 3:] + ["Ana", "Bo", "Cy"][:n % 3],
                                 title=f"Night {n + 1}"), group="Fridays")
    shutil.copy(DATA / "bgg_plays.xml", "plays.xml")
    shutil.copy(DATA / "bgstats_plays.json", "BGStatsExport.json")
    shutil.copy(DATA / "soe_bad_upkeep.json", "friday.json")
    ledger.create_game("risk", "Tonight", {"mode": "fixed_rounds", "rounds": 3},
                       [{"name": name, "color": colour} for name, colour in
                        (("Ana", "red"), ("Bo", "blue"), ("Cy", "green"))])
    ledger.engine.dispose()
    return tmp_path


@pytest.fixture
def hosts(monkeypatch):
    """What each host would serve, in place of listening."""
    from tui.hosting import ssh, web

    served: list[tuple[str, tuple, dict]] = []

    async def ssh_serve(*args, **kwargs):
        served.append(("ssh", args, kwargs))

    monkeypatch.setattr(ssh, "serve", ssh_serve)
    monkeypatch.setattr(web, "serve", lambda *a, **k: served.append(("web", a, k)))
    return served


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")))
def test_a_pages_commands_run_as_written(page, table, hosts):
    runner = CliRunner()
    for line, said in commands(DOCS / page):
        words = shlex.split(line)
        assert words[0] == "warledger", f"docs/{page}: {line!r} is not a warledger command"
        result = runner.invoke(app, words[1:])
        if said is None:
            assert result.exit_code == 0, f"docs/{page}: {line}\n{result.output}"
        else:
            assert said in result.output, f"docs/{page}: {line} printed\n{result.output}"
    if page == "hosting.md":
        assert [kind for kind, _, _ in hosts] == ["ssh", "ssh", "web"]
