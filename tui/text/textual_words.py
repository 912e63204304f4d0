"""Words Textual itself shows (its palette's system commands), as message ids for the
catalogs: tui/app.py shows them through `_()`. A Textual upgrade that rewords one shows it in
English until it is added here."""

from __future__ import annotations

from i18n import N_

SYSTEM_COMMANDS = (
    N_("Theme"), N_("Change the current theme"),
    N_("Quit"), N_("Quit the application as soon as possible"),
    N_("Maximize"), N_("Maximize the focused widget"),
    N_("Minimize"), N_("Minimize the widget and restore to normal size"),
    N_("Screenshot"), N_("Save an SVG 'screenshot' of the current screen"),
)
