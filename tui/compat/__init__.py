"""The fence: every use of a library's private name, one module per library, each name
behind a function that says what it does, each checked by tests/test_compat.py so that a
release that moves one fails one test naming it."""
