"""The command line: `warledger` and its commands (plain ones skip Typer, Rich and Textual)."""
