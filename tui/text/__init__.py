"""Text as the screens show it: player text literally, words and numbers, Textual's own words."""
