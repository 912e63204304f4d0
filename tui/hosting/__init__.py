"""Hosting a table: every player follows and records the same game from their own terminal.

`keys` knows who may sit at the table (the host key, the players' keys), `ssh` is the
asyncssh server that gives each connection a TUI of its own in a pseudo-terminal, `child`
is what runs in that terminal, `zygote` the warm parent each SSH player is forked from (the
TUI and its libraries already imported), and `web` serves the same TUI to a browser.
"""
