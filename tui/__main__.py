"""`python -m tui`: the same as the `warledger` console script."""

from tui.cli.start import main

main()
