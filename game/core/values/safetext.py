"""Text from files made safe to show: the one place every command's output and the window go through.

A map's title, a spawn's name, a save's label or a file's own name may hold anything: terminal
escape sequences (ESC[2J clears the screen, an OSC sequence retitles the terminal), BEL, bidi
overrides that reverse what follows (U+202E), or lone surrogates that no encoder accepts (a JSON
"\\ud800", a file name that is not UTF-8). `printable` shows each such character escaped, as
Python writes it (`\\x1b`, `\\u202e`, `\\ud800`; a byte of a non-UTF-8 file name as `\\xff`), and
leaves every other character, and the text's length class, as it was. The CLI writes all its
output through `printable` (game/cli.py), the window its caption and every text it draws.
"""
from __future__ import annotations

import re

# C0 and C1 controls (tab and newline kept: they lay out text), DEL, the bidi embeddings, overrides
# and isolates, the direction marks, line and paragraph separators, and every surrogate code point.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                     "\u2066-\u2069\ud800-\udfff]")
_UNSAFE_ONE_LINE = re.compile("[\t\n]|" + _UNSAFE.pattern)


def _escape(match: re.Match) -> str:
    code = ord(match.group(0))
    if 0xDC80 <= code <= 0xDCFF:        # a byte of a file name that is not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def printable(text: str, one_line: bool = False) -> str:
    """`text` with control, bidi and surrogate characters shown escaped (with `one_line`, tabs and
    newlines too); text holding none of them is returned as it is."""
    pattern = _UNSAFE_ONE_LINE if one_line else _UNSAFE
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)


def printable_path(path) -> str:
    """A path as text to show: its bytes that are not UTF-8 shown as `\\xNN`."""
    return printable(str(path), one_line=True)
