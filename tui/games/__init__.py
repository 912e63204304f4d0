"""The games of this warledger on screen: importing this package registers each game's
screens (its package's `__init__` holds its entry) in the registry the shared screens ask,
tui/screens/registry.py. What runs the screens (the app, the command line) imports it, as
rules.game brings in each game's rules.
"""

# In this order: the home screen and the league list the games in the order registered.
# isort: off
from tui.games import soe  # noqa: F401
from tui.games import risk  # noqa: F401
# isort: on
