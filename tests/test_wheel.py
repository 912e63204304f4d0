"""The project as its users install it (issue 23): the wheel holds what the code reads at run
time besides its modules (the stylesheet, the Alembic migrations, the rules text), and a
fresh virtual environment with only that wheel and its dependencies runs the CLI and the
TUI from a folder outside the project."""

from __future__ import annotations

import fcntl
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import termios
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "storage", "tui")
ANSI = rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\-_])"

# What the code opens by path, besides its modules, and who opens it.
READ_AT_RUN_TIME = {
    "tui/app.tcss": "WarledgerApp.CSS_PATH",
    "tui/screens.tcss": "TableApp.REST_OF_THE_LOOK",
    "rules/README.md": "the rules screen (tui/screens/rules_help.py)",
    "storage/migrations/env.py": "Alembic (storage/migrate.py: script_location)",
    "storage/migrations/script.py.mako": "Alembic's new revisions (storage/migrate.py)",
}


def uv() -> str:
    found = shutil.which("uv") or shutil.which("uv", path=str(Path.home() / ".local/bin"))
    if found is None:
        pytest.skip("uv is not installed")
    return found


def outside_env(folder: Path) -> dict[str, str]:
    """The environment of a user's shell in `folder`: no project venv, no PYTHONPATH, a data
    folder of its own."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "WARLEDGER_DB", "UV_PROJECT",
                        "UV_PROJECT_ENVIRONMENT", "COLUMNS", "LINES", "TEXTUAL")}
    env.update({"XDG_DATA_HOME": str(folder / "xdg"), "TERM": "xterm-256color"})
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([uv(), "build", "--wheel", "--quiet", "--out-dir", str(out)], cwd=ROOT,
                   check=True, timeout=300)
    (found,) = out.glob("warledger-*.whl")
    return found


def shipped_files() -> set[str]:
    """Every file of the three packages in the checkout that git does not ignore (what
    hatchling puts in the wheel), bytecode left out."""
    files = sorted(p.relative_to(ROOT).as_posix() for package in PACKAGES
                   for p in (ROOT / package).rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    try:
        ignored = subprocess.run(["git", "check-ignore", "--stdin"], cwd=ROOT,
                                 input="\n".join(files), capture_output=True, text=True,
                                 timeout=30).stdout.split()
    except OSError:  # no git: nothing more is left out
        ignored = []
    return set(files) - set(ignored)


def test_the_wheel_holds_the_stylesheet_migrations_and_rules_text(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = {path: why for path, why in READ_AT_RUN_TIME.items() if path not in names}
    assert not missing, f"not in {wheel.name}: {missing}"
    migrations = sorted(ROOT.glob("storage/migrations/versions/*.py"))
    assert migrations
    for path in migrations:
        assert path.relative_to(ROOT).as_posix() in names, f"migration {path.name} not shipped"
    # Anything a later change adds beside the modules (a game's stylesheet, its rules text)
    # is shipped too.
    assert not shipped_files() - names, f"not in {wheel.name}: {shipped_files() - names}"
    entry_points = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "warledger = tui.cli.start:main" in entry_points


def first_words_of_rules_text() -> str:
    """The first words of the first plain paragraph of rules/README.md: shown on the rules
    screen only when the file is read (without it the screen says it is missing)."""
    for line in (ROOT / "rules" / "README.md").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith(("#", "|", "-", ">", "`", "<")):
            words = []
            for word in line.split():
                if re.search(r"[*_`\[\]()<>|\\]", word) or len(words) == 4:
                    break
                words.append(word)
            if len(words) >= 3:
                return " ".join(words)
    raise AssertionError("rules/README.md has no plain paragraph")


class Terminal:
    """`argv` in a pseudo-terminal of 100x30, as a user starts it."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     cwd=cwd, start_new_session=True, close_fds=True)
        os.close(slave)
        self.raw = b""

    def text(self) -> str:
        return re.sub(ANSI, b"", self.raw).decode("utf-8", "replace")

    def wait_for(self, text: str, seconds: float = 60) -> None:
        end = time.monotonic() + seconds
        while text not in self.text():
            assert self.proc.poll() is None, f"ended before {text!r}: {self.text()[-1500:]}"
            assert time.monotonic() < end, f"never drew {text!r}: {self.text()[-1500:]}"
            if select.select([self.master], [], [], 0.1)[0]:
                try:
                    self.raw += os.read(self.master, 1 << 16)
                except OSError:  # the app closed its terminal
                    raise AssertionError(f"ended before {text!r}: {self.text()[-1500:]}") from None

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        try:
            self.write(b"\x11")  # ctrl+q
            end = time.monotonic() + 5
            while self.proc.poll() is None and time.monotonic() < end:
                if select.select([self.master], [], [], 0.1)[0]:
                    try:
                        os.read(self.master, 1 << 16)
                    except OSError:
                        break
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            os.close(self.master)


@pytest.mark.slow
def test_the_installed_wheel_runs_from_outside_the_project(wheel, tmp_path):
    # Same versions as the lock file (uv's cache has them), the project itself only from the
    # wheel.
    constraints = tmp_path / "constraints.txt"
    subprocess.run([uv(), "export", "--frozen", "--no-dev", "--no-hashes", "--no-emit-project",
                    "--quiet", "--output-file", str(constraints)], cwd=ROOT, check=True,
                   timeout=120)
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = outside_env(away)
    venv = tmp_path / "venv"
    subprocess.run([uv(), "venv", "--quiet", str(venv)], cwd=away, env=env, check=True,
                   timeout=120)
    subprocess.run([uv(), "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"),
                    "--constraint", str(constraints), str(wheel)], cwd=away, env=env,
                   check=True, timeout=600)
    warledger = str(venv / "bin" / "warledger")

    def run(*args: str) -> str:
        done = subprocess.run([warledger, *args], cwd=away, env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, f"warledger {' '.join(args)}: {done.stderr[-2000:]}"
        return done.stdout + done.stderr

    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import rules, storage, tui; print(rules.__file__, storage.__file__, tui.__file__)"],
        cwd=away, env=env, capture_output=True, text=True, check=True).stdout.split()
    assert all(Path(p).is_relative_to(venv) for p in where), where  # the wheel's, not ROOT's

    assert "replay" in run("--help")
    db = away / "games.db"
    # A new database: Alembic runs every migration from the installed package.
    assert "Demo games stored" in run("demo", "--no-tui", "--db", f"sqlite:///{db}")
    # The revisions read back as text from the installed migrations.
    listed = run("sessions", "--db", str(db))
    assert "Demo: Struggle of Empires" in listed and "Demo: Risk" in listed

    # The TUI: the stylesheet loads (Textual stops at start without it), the home screen
    # lists the games, and the rules screen shows rules/README.md.
    term = Terminal([warledger, "--db", str(db)], env, away)
    try:
        term.wait_for("Demo: Risk")
        term.write(b"?")
        term.wait_for("Close this help")
        term.write(b"o")
        term.wait_for(first_words_of_rules_text())
        assert "rules/README.md) is missing" not in term.text()
    finally:
        term.close()
