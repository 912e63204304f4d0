"""Struggle of Empires on screen: its game screen, setup, forms, dialogs and board profiles,
and its entry in the registry of the games' screens (loaded when first asked)."""

from i18n import N_
from tui.screens.registry import Figure, GameScreens, MoreScreen, register

SCREENS = register(GameScreens(
    game="soe", new_key="n", league_key="s",
    setup="tui.games.soe.setup:NewSoeGameScreen", play="tui.games.soe.game:SoeGameScreen",
    results="tui.games.soe.results:RESULT_WORDS", rules_section="struggle-of-empires",
    demo="tui.games.soe.demo:store_demo",
    side_word=N_("Power"), side_names="rules.soe.regions:shown",
    score_word=N_("Average final VP"), scoreboard=(Figure("final_vp", N_("VP")),),
    more=(MoreScreen("b", "boards", N_("Board profiles"),
                     (N_("Open: board profiles"), N_("Region values of your boards")),
                     "tui.games.soe.board:BoardProfileScreen"),)))
