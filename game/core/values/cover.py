"""Degrees of cover and concealment, in order: the index is what a map's `cover` and
`concealment` layers hold (kept apart from the map itself so rulesets load without numpy)."""

COVER_DEGREES = ("none", "1/4", "1/2", "3/4", "full")
COVER_INDEX = {name: i for i, name in enumerate(COVER_DEGREES)}
