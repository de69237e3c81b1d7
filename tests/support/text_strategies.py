"""Text strategies over a fixed alphabet. Hypothesis's default `st.text()` first builds
a table of every Unicode character (about 14 s, once per clone, in whichever test runs
first); a fixed alphabet that still has what JSON and our parsers must get through --
quotes, backslashes, control characters, accents, CJK and a character beyond the Basic
Multilingual Plane -- costs nothing."""

import string

from hypothesis import strategies as st

ALPHABET = string.printable + "\x00\x1f\x7féß漢字\u2028\u2603\U0001f600"


def text(max_size: int) -> st.SearchStrategy[str]:
    return st.text(alphabet=ALPHABET, max_size=max_size)
