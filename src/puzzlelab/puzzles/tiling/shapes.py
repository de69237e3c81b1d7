"""Counting the frontier shapes of the column DP (OEIS A242551), independently of it.

In the middle of a full rectangle every row of the frontier is covered 1..s columns
ahead by a square of side s still "in the making". Read top to bottom, the frontier is
a sequence of maximal runs of equal values; a run of value v and length L can be the
right end of squares exactly when L >= v (one square of side L, v columns of it still
to come; or several squares each of side >= v). So the distinct states of height n are
the compositions of n into runs L_1 + ... + L_k, each given a value v_i in 1..L_i, with
neighbouring values different. The seed write-up tabulates these counts as
"UniqueTilings" (1, 2, 5, 11, 24, ... for heights 1, 2, 3, ...); they are OEIS A242551.

`frontier_shape_count(n)` counts them by a DP over (rows used, value of the last run);
tests compare it with the most states the DP holds for a long n-row rectangle.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["frontier_shape_count", "A242551_PUBLISHED"]

# OEIS A242551, heights 1..15 (the figures the write-up quotes).
A242551_PUBLISHED = (1, 2, 5, 11, 24, 53, 118, 261, 577, 1276, 2823, 6246, 13819, 30572, 67635)


def frontier_shape_count(height: int) -> int:
    """Number of distinct frontier states of a `height`-row strip (A242551(height))."""
    if height < 1:
        raise ValueError("height must be at least 1")
    return sum(_ending(height, v) for v in range(1, height + 1))


@lru_cache(maxsize=None)
def _ending(rows: int, value: int) -> int:
    """Sequences of runs filling `rows` rows whose last run has value `value`."""
    total = 0
    for length in range(value, rows + 1):  # the last run: L >= value
        before = rows - length
        if before == 0:
            total += 1
        else:
            total += sum(_ending(before, v) for v in range(1, before + 1) if v != value)
    return total
