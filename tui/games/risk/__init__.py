"""Risk on screen: its game screen, setup, forms and dialogs."""
