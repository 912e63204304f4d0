"""The host's keys file and host key (issue 22): read as OpenSSH's StrictModes would, with no
gap between the check and the read (real files, real links, and another user swapping a link
while the host reads), and key options read with OpenSSH's grammar, each honoured or refused
aloud. Player names from the file follow the rules for any player's name, and two lines
whose names look alike are both refused."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import stat
import tempfile
import threading
import time
from pathlib import Path

import asyncssh
import pytest

from tui.hosting import child
from tui.hosting.keys import (
    HOST_KEY_NAME,
    NO_SEAT,
    HostingError,
    key_options,
    load_host_key,
    read_players,
    split_key_line,
)
from tui.hosting.ssh import Table, open_table
from tui.hosting.ssh_terminal import child_command

ROOT = os.geteuid() == 0
OTHER_USER = 65534  # nobody: "another user of this machine", for the tests run as root
needs_root = pytest.mark.skipif(not ROOT, reason="another user's files need root to make")
CYRILLIC_A = "\u0410"


@pytest.fixture(scope="module")
def keys() -> dict[str, asyncssh.SSHKey]:
    return {name: asyncssh.generate_private_key("ssh-ed25519", comment=f"{name.lower()}@laptop")
            for name in ["Ana", "Bo", "Cy", "Di", "stranger"]}


def public(key: asyncssh.SSHKey) -> str:
    """`ssh-ed25519 AAAA… comment`, as the player sent it."""
    return key.export_public_key().decode().strip()


def keys_file(folder: Path, *lines: str) -> Path:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / "authorized_keys"
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o600)
    return path


@pytest.fixture
def tmp_folders():
    """Folders straight under /tmp (made 0700, as root's), so another user can reach the
    ones the test opens up; removed afterwards."""
    made: list[Path] = []

    def make(mode: int = 0o700, owner: int | None = None) -> Path:
        folder = Path(tempfile.mkdtemp(prefix="warledger-keys-", dir="/tmp"))
        made.append(folder)
        folder.chmod(mode)
        if owner is not None:
            os.chown(folder, owner, owner)
        return folder

    yield make
    for folder in made:
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------- options, as OpenSSH reads them

def test_a_command_option_holding_player_is_one_option(keys, tmp_path):
    line = f'command="x,player=Root",player="Opt" {public(keys["Ana"])}'
    options, key = split_key_line(line)
    assert key == public(keys["Ana"])
    assert key_options(options) == [("command", "x,player=Root"), ("player", "Opt")]
    path = keys_file(tmp_path / "k", line, f'player="Bo" {public(keys["Bo"])}')
    players = read_players(path)
    assert [line.player for line in players.lines] == ["Bo"]  # never Root, never seated
    assert players.warnings == [
        f"{path}, line 1: command= is refused: the table runs warledger and no other "
        "command; remove command= to seat this key; the line is skipped"]


@pytest.mark.parametrize(("options", "parsed"), [
    ('player="B\\"o"', [("player", 'B"o')]),  # an escaped quote
    ('player="Bo",from="127.0.0.1,10.0.0.*"', [("player", "Bo"),
                                               ("from", "127.0.0.1,10.0.0.*")]),
    ('player="Bo, the elder"', [("player", "Bo, the elder")]),
    ('PLAYER="Bo",No-Pty', [("player", "Bo"), ("no-pty", None)]),  # any case, as OpenSSH
    ('command="a\\b"', [("command", "a\\b")]),  # only \" is an escape
])
def test_options_follow_openssh_grammar(options, parsed):
    assert key_options(options) == parsed


@pytest.mark.parametrize("options", ['player=Bo', 'player="Bo",', 'player="Bo"x', ',player="Bo"'])
def test_options_that_break_the_grammar_skip_their_line(keys, tmp_path, options):
    path = keys_file(tmp_path / "k", f"{options} {public(keys['Bo'])}",
                     f'player="Ana" {public(keys["Ana"])}')
    players = read_players(path)
    assert [line.player for line in players.lines] == ["Ana"]
    (warning,) = players.warnings
    assert warning.startswith(f"{path}, line 1: ") and warning.endswith("the line is skipped")


def test_each_option_is_honoured_or_refused_aloud(keys, tmp_path):
    lines = [
        f'player="Ana",no-port-forwarding,no-agent-forwarding,no-X11-forwarding,no-user-rc,'
        f'permitopen="localhost:80",touch-required {public(keys["Ana"])}',  # honoured, no word
        f'player="Bo",port-forwarding,environment="A=b" {public(keys["Bo"])}',  # refused alone
        f'player="Cy",spectator {public(keys["Cy"])}',  # the table's own: the scoreboard only
        f'player="Di",cert-authority {public(keys["Di"])}',
        f'player="stranger",watcher {public(keys["stranger"])}',  # unknown: line skipped
    ]
    path = keys_file(tmp_path / "k", *lines)
    players = read_players(path)
    assert [(line.player, line.seat, line.spectator) for line in players.lines] == [
        ("Ana", True, False), ("Bo", True, False), ("Cy", True, True)]
    assert players.warnings == [
        f"{path}, line 2: port-forwarding is refused: the table forwards nothing (the key "
        "still sits)",
        f"{path}, line 2: environment= is refused: the table passes no environment variable "
        "to a player (the key still sits)",
        f"{path}, line 4: cert-authority is refused: certificates are not taken here; the "
        "line is skipped",
        f"{path}, line 5: watcher is not a key option OpenSSH or warledger knows; the line "
        "is skipped",
    ]


def test_a_spectator_runs_the_scoreboard_and_a_player_the_tui(monkeypatch):
    started: list[tuple] = []

    class Recorder:
        def __init__(self, db, player):
            started.append(("tui", db, player))

        def run(self, mouse):
            pass

    class Scoreboard:
        def __init__(self, db, viewer):
            started.append(("scoreboard", db, viewer))

        def run(self, mouse):
            pass

    monkeypatch.setattr("tui.app.WarledgerApp", Recorder)
    monkeypatch.setattr("tui.scoreboard.app.ScoreboardApp", Scoreboard)
    assert child_command("t.db", "Cy", spectator=True)[3:] == [
        "--player=Cy", "--spectator", "--db", "t.db"]
    child.main(child_command("t.db", "Cy", spectator=True)[3:])
    child.main(child_command("t.db", "Ana")[3:])
    assert started == [("scoreboard", "t.db", "Cy"), ("tui", "t.db", "Ana")]


@pytest.mark.parametrize(("options", "seat"), [
    ("no-pty", False), ("restrict", False), ("restrict,pty", True), ("pty,restrict", False),
    ("pty", True)])
def test_no_pty_and_restrict_give_no_seat_and_say_so(keys, tmp_path, options, seat):
    path = keys_file(tmp_path / "k", f'player="Bo",{options} {public(keys["Bo"])}')
    players = read_players(path)
    assert [line.seat for line in players.lines] == [seat]
    assert players.warnings == ([] if seat else [
        f"{path}, line 1: no-pty (or restrict without pty): Bo's key gets no seat, and is "
        "told so when it connects"])


def test_an_expired_key_is_skipped(keys, tmp_path):
    path = keys_file(tmp_path / "k",
                     f'player="Ana",expiry-time="20200101" {public(keys["Ana"])}',
                     f'player="Bo",expiry-time="29991231235959Z" {public(keys["Bo"])}')
    players = read_players(path)
    assert [line.player for line in players.lines] == ["Bo"]
    assert 'line 1: the key expired on 2020-01-01 00:00 (expiry-time="20200101")' in \
        players.warnings[0]


# ---------------------------------------------------------------- names from the file

@pytest.mark.parametrize(("name", "reason"), [
    ("--db=/x", "may not start with '-'"),
    ("-Ana", "may not start with '-'"),
    ("\u3164", "holds an invisible character (\\u3164)"),  # HANGUL FILLER: looks blank
    ("Ana\u200b", "holds an invisible character (\\u200b)"),
    ("\u2800", "looks blank (\\u2800)"),
])
def test_a_name_no_player_may_have_skips_its_line(keys, tmp_path, name, reason):
    path = keys_file(tmp_path / "k", f'player="{name}" {public(keys["Bo"])}',
                     f'{public(keys["Ana"]).rsplit(" ", 1)[0]} {name}',  # as the comment
                     f'player="Cy" {public(keys["Cy"])}')
    players = read_players(path)
    assert [line.player for line in players.lines] == ["Cy"]
    assert len(players.warnings) == 2
    for number, warning in enumerate(players.warnings, 1):
        assert warning.startswith(f"{path}, line {number}: ") and reason in warning
        assert warning.endswith("; the line is skipped")


def test_a_comment_names_its_player_in_any_script(keys, tmp_path):
    kind, blob = public(keys["Ana"]).split()[:2]
    path = keys_file(tmp_path / "k", f"{kind} {blob} Zoë", f"{kind} AAAA Ana")
    players = read_players(path)
    assert [line.player for line in players.lines] == ["Zoë"]
    assert "line 2: not a public key" in players.warnings[0]


LOOK_ALIKE = " (they differ only by look-alike or invisible characters)"


@pytest.mark.parametrize(("second", "said"), [
    ("Ana", "two keys are named Ana"),
    ("ana", "two keys are named Ana"),
    (f"{CYRILLIC_A}na", f"the names Ana and {CYRILLIC_A}na (\\u0410na) look alike{LOOK_ALIKE}"),
    ("Ana\u200d", f"the names Ana and Ana\u200d (Ana\\u200d) look alike{LOOK_ALIKE}"),  # ZWJ
])
def test_two_lines_whose_names_look_alike_are_both_skipped(keys, tmp_path, second, said):
    path = keys_file(tmp_path / "k", f'player="Ana" {public(keys["Ana"])}',
                     f'player="Bo" {public(keys["Bo"])}',
                     f'player="{second}" {public(keys["Cy"])}')
    players = read_players(path)
    assert [line.player for line in players.lines] == ["Bo"]
    assert players.warnings == [f"{path}, lines 1 and 3: {said}; both lines are skipped"]


def test_the_players_process_never_reads_a_name_as_an_option(monkeypatch, capsys):
    seated: list[tuple] = []

    class App:
        def __init__(self, db, player):
            seated.append((db, player))

        def run(self, mouse):
            pass

    monkeypatch.setattr("tui.app.WarledgerApp", App)
    for name in ("--db=/x", "-h"):  # refused in the keys file, and refused here too
        argv = child_command(None, name)
        assert argv[3:] == [f"--player={name}"]
        with pytest.raises(SystemExit) as exit_:
            child.main(argv[3:])
        assert exit_.value.code == 2
        assert "may not start with '-'" in capsys.readouterr().err  # a name, not an option
    child.main(child_command(None, "Ana")[3:])
    assert seated == [(None, "Ana")]


# ---------------------------------------------------------------- the file and its folders

def test_links_to_the_hosts_own_folders_are_followed_but_a_link_to_the_file_is_refused(
        keys, tmp_path, monkeypatch):
    path = keys_file(tmp_path / "k", f'player="Ana" {public(keys["Ana"])}')
    (tmp_path / "via").symlink_to(tmp_path / "k")
    (tmp_path / "k" / "up").symlink_to("..")
    assert len(read_players(tmp_path / "via" / "authorized_keys").lines) == 1
    assert len(read_players(tmp_path / "k" / "up" / "k" / "authorized_keys").lines) == 1
    monkeypatch.chdir(tmp_path / "k")
    assert len(read_players(Path("../k/./authorized_keys")).lines) == 1
    link = tmp_path / "k" / "link"
    link.symlink_to(path)
    with pytest.raises(HostingError) as refused:
        read_players(link)
    assert str(refused.value) == (
        f"refusing {link}: it is a link (to '{path}'), and a link can be swapped between a "
        "check and a read; use the file itself, not a link")
    odd = tmp_path / "k" / "odd"
    odd.symlink_to("x\n\x1b[2Jy")  # what the link holds is shown, escaped, in one line
    with pytest.raises(HostingError, match=r"it is a link \(to 'x\\n\\x1b\[2Jy'\)"):
        read_players(odd)


def test_a_link_in_a_folder_anyone_can_write_is_refused(keys, tmp_path):
    """The issue's first probe: the link's folder is open to all, the link's target is fine."""
    keys_file(tmp_path / "good", f'player="Ana" {public(keys["Ana"])}')
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    (shared / "keys").symlink_to(tmp_path / "good")
    with pytest.raises(HostingError) as refused:
        read_players(shared / "keys" / "authorized_keys")
    assert f"other users of this machine can change the folder {shared} (mode 0777)" in \
        str(refused.value)


def test_a_link_target_in_a_folder_anyone_can_write_is_refused(keys, tmp_path):
    """The path as given is the host's own; the real path goes through a folder open to all."""
    open_ = tmp_path / "open"
    open_.mkdir()
    keys_file(open_ / "inner", f'player="Ana" {public(keys["Ana"])}')
    open_.chmod(0o777)
    (tmp_path / "mine").mkdir(mode=0o700)
    (tmp_path / "mine" / "keys").symlink_to(open_ / "inner")
    with pytest.raises(HostingError, match=f"can change the folder {open_} "):
        read_players(tmp_path / "mine" / "keys" / "authorized_keys")


@needs_root
def test_in_a_sticky_folder_only_the_hosts_own_names_count(keys, tmp_path, tmp_folders):
    """/tmp-like (1777): a link there is safe when it is the host's (nobody else can
    replace it), refused when it is another user's (they can)."""
    keys_file(tmp_path / "good", f'player="Ana" {public(keys["Ana"])}')
    sticky = tmp_folders(0o1777)
    (sticky / "mine").symlink_to(tmp_path / "good")
    assert len(read_players(sticky / "mine" / "authorized_keys").lines) == 1
    (sticky / "theirs").symlink_to(tmp_path / "good")
    os.lchown(sticky / "theirs", OTHER_USER, OTHER_USER)
    with pytest.raises(HostingError) as refused:
        read_players(sticky / "theirs" / "authorized_keys")
    assert str(refused.value) == (
        f"refusing {sticky / 'theirs' / 'authorized_keys'}: {sticky / 'theirs'} belongs to "
        f"another user (uid {OTHER_USER}) in {sticky}, which anyone can write, so they could "
        "swap it; keep it in a folder of your own")


@needs_root
def test_any_folder_on_the_path_of_another_user_is_refused(keys, tmp_path):
    """Not only the folder holding the file: its owner could swap the folder below it."""
    path = keys_file(tmp_path / "theirs" / "mine", f'player="Ana" {public(keys["Ana"])}')
    theirs = tmp_path / "theirs"
    theirs.chmod(0o755)
    os.chown(theirs, OTHER_USER, OTHER_USER)
    with pytest.raises(HostingError) as refused:
        read_players(path)
    assert str(refused.value) == (
        f"refusing {path}: the folder {theirs} belongs to another user (uid {OTHER_USER}), "
        "who could seat anyone at the table; keep it in a folder of your own")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    folder = tmp_path / "k"
    folder.mkdir(mode=0o700)
    fifo = folder / "authorized_keys"
    os.mkfifo(fifo, 0o600)
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.append(_refusal(fifo)), daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():  # an old reader blocks in open(): let it go before failing
        with open(fifo, "wb"):
            pass
        reader.join(5)
    assert said == [f"refusing {fifo}: the players' keys file is not a regular file"]


def _refusal(path: Path) -> str:
    try:
        read_players(path)
    except HostingError as e:
        return str(e)
    return "accepted"


# ---------------------------------------------------------------- a link swapped meanwhile

def swap(link: Path, targets: tuple[Path, Path], seconds: float, user: int | None) -> int:
    """In a process of its own (as `user`, when given), point `link` at each target in turn,
    atomically (a new link renamed over it: it is always there), for `seconds`. Returns the
    process id; its exit status is 0 once it swapped more than 100 times."""
    pid = os.fork()
    if pid:
        return pid
    status = 1
    try:
        if user is not None:
            os.setgroups([])
            os.setgid(user)
            os.setuid(user)
        spare = link.with_name(link.name + ".new")
        swaps = 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for target in targets:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(spare)
                os.symlink(target, spare)
                os.rename(spare, link)
                swaps += 1
        status = 0 if swaps > 100 else 1
    finally:
        os._exit(status)


@pytest.mark.parametrize("where", ["file", "folder"])
def test_another_user_swapping_a_link_never_seats_an_unknown_key(keys, tmp_folders, where):
    """The issue's second probe: another user swaps a link (the keys file itself, or a
    folder on its path) between the host's file and their own, while the host reads the
    file again and again. The stranger's key is never read."""
    other = OTHER_USER if ROOT else None
    good = tmp_folders(0o700)
    keys_file(good, f'player="Ana" {public(keys["Ana"])}')
    evil = tmp_folders(0o755, owner=other)
    evil_keys = keys_file(evil, f'player="Mallory" {public(keys["stranger"])}')
    if other is not None:
        os.chown(evil_keys, other, other)
    # /tmp-like for the file's link (1777); open to all for the folder's (0777).
    shared = tmp_folders(0o1777 if where == "file" else 0o777)
    link = shared / "keys"
    targets = (good / "authorized_keys", evil_keys) if where == "file" else (good, evil)
    link.symlink_to(targets[0])
    if other is not None:
        os.lchown(link, other, other)
    path = link if where == "file" else link / "authorized_keys"
    swapper = swap(link, targets, 2.5, other)
    strangers = reads = refused = 0
    try:
        end = time.monotonic() + 2.0
        while time.monotonic() < end:
            reads += 1
            try:
                players = read_players(path)
            except HostingError:
                refused += 1
                continue
            strangers += sum(line.player == "Mallory" for line in players.lines)
    finally:
        _, status = os.waitpid(swapper, 0)
    assert os.waitstatus_to_exitcode(status) == 0  # it really swapped, many times
    assert reads > 100
    assert strangers == 0
    assert refused == reads  # and the host is told why, every time


# ---------------------------------------------------------------- the host key

def test_a_loose_host_key_is_made_private_and_the_host_told(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    said: list[str] = []
    made = load_host_key(folder, said.append)
    path = folder / HOST_KEY_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and said == []
    path.chmod(0o644)
    again = load_host_key(folder, said.append)
    assert again.get_fingerprint() == made.get_fingerprint()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert said == [f"the host key {path} was open to other users (mode 0644): made 0600; "
                    "if anyone may have copied it, delete it and start again for a new one"]


def test_a_host_key_behind_a_link_is_refused(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    load_host_key(folder, print)
    (folder / HOST_KEY_NAME).rename(tmp_path / "elsewhere")
    (folder / HOST_KEY_NAME).symlink_to(tmp_path / "elsewhere")
    with pytest.raises(HostingError, match="it is a link"):
        load_host_key(folder, print)


@needs_root
def test_another_users_host_key_is_refused(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    load_host_key(folder, print)
    os.chown(folder / HOST_KEY_NAME, OTHER_USER, OTHER_USER)
    with pytest.raises(HostingError, match="belongs to another user"):
        load_host_key(folder, print)


# ---------------------------------------------------------------- over SSH

async def connect(port: int, key: asyncssh.SSHKey) -> asyncssh.SSHClientConnection:
    return await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username="player", known_hosts=None, agent_path=None,
        client_keys=[key]), 10)


@pytest.fixture
async def table(tmp_path, keys):
    """A table (no game, no warm parent needed) whose keys file the test writes; what the
    host's console says is in `table.said`."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    path = keys_file(data, f'player="Ana" {public(keys["Ana"])}')
    said: list[str] = []
    opened = Table(str(tmp_path / "table.db"), path, port=0, say=said.append)
    opened.said = said
    acceptor, _ = await open_table(opened, "127.0.0.1", data)
    yield opened
    acceptor.close()
    await asyncio.wait_for(opened.clear(), 10)


async def test_a_no_pty_key_is_told_in_one_line_and_gets_no_seat(table, keys):
    table.keys_path.write_text(f'player="Bo",no-pty {public(keys["Bo"])}\n'
                               f'player="Ana" {public(keys["Ana"])}\n')
    conn = await connect(table.port, keys["Bo"])
    try:
        with pytest.raises(asyncssh.ChannelOpenError) as refused:
            await conn.create_session(asyncssh.SSHClientSession, term_type="xterm")
        assert refused.value.reason == NO_SEAT
    finally:
        conn.close()
    assert not table.seats
    assert "Bo refused: no-pty in the keys file gives no seat" in table.said
    assert sum("no-pty (or restrict without pty): Bo's key" in line for line in table.said) == 1


async def test_option_lines_from_the_issue_over_ssh(table, keys):
    table.keys_path.write_text(
        f'command="x,player=Root",player="Opt" {public(keys["Bo"])}\n'
        f'player="--db=/x" {public(keys["Cy"])}\n'
        f'player="Di",FROM="10.9.9.9" {public(keys["Di"])}\n'  # honoured in any case
        f'player="Ana" {public(keys["Ana"])}\n')
    for name in ("Bo", "Cy", "Di", "stranger"):
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table.port, keys[name])
    conn = await connect(table.port, keys["Ana"])
    conn.close()
    warnings = [line for line in table.said if line.startswith("warning: ")]
    assert len(warnings) == 2  # each said once, however many connections
    assert "line 1: command= is refused" in warnings[0]
    assert "line 2: the player's name may not start with '-'" in warnings[1]
