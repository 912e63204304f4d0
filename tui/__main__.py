"""`python -m tui`: the same as the `warledger` console script."""

from tui.start import main

main()
