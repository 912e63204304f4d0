"""Hosting a table: every player follows and records the same game from their own terminal.

`keys` knows who may sit at the table (the host key, the players' keys), read as
`private_files` reads files nobody else can change. Both hosts share one door: `door` says
who is admitted, `listen` holds the listening sockets and their accept loop, `tally` tells
refusals on the host's console, `processes` ends what a host started, and `paced` reads a
player's input at their app's pace. `ssh` is the asyncssh server, `ssh_terminal` each
connection's TUI in a pseudo-terminal of its own, `child` what runs in that terminal,
`zygote` the warm parent each SSH player is forked from; `web` serves the same TUI to a
browser (`web_door`, `web_input`, `web_addresses`, `web_console`, `web_links`).
"""
