"""The scoreboard's read-only app for a TV, and its large figures."""
