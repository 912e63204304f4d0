"""Risk on screen: its game screen, setup, forms and dialogs, and its entry in the registry
of the games' screens (loaded when first asked)."""

from i18n import N_
from tui.screens.registry import Figure, GameScreens, register

SCREENS = register(GameScreens(
    game="risk", new_key="r", league_key="k",
    setup="tui.games.risk.setup:NewRiskGameScreen", play="tui.games.risk.game:RiskGameScreen",
    results="tui.games.risk.results:RESULT_WORDS", rules_section="risk",
    demo="tui.games.risk.demo:store_demo",
    side_word=N_("Colour"), side_names="rules.risk.board:shown", seat_balance=True,
    scoreboard=(Figure("territories", N_("Territories")), Figure("score", N_("Score")))))
