"""The numba kernel of the matchstick search: one depth-first search, largest square
first, that serves every method (diagonal, greedy, full, counting, subtree splitting).

The board follows B. Chaffin's "Matchstick Squares" (2019): the area has A + 1 rows and
A + 1 columns of A unit segments each; every row and every column is one uint64 word
with bit i set while segment i is still *empty*. A placement of a size-t square at
(x, y) is precomputed as a row mask `h` (t bits from x) and a column mask `v` (t bits
from y); the matches it adds are

    popcount(row[y] & h) + popcount(row[y+t] & h) + popcount(col[x] & v) + popcount(col[x+t] & v)

and placing it clears those bits in the four words (saved per depth for the undo).

Search rules (all from the write-up, so that counts of optimal solutions agree):
- the caller fixes the largest squares through `prefix` (the two largest share their
  top-left corner), then sizes are placed in decreasing order;
- while the board is symmetric about the main diagonal (row[i] == col[i] for every i)
  only placements on or above the diagonal (y <= x) are tried;
- a placement adding no match is taken at once, alone (it dominates every other);
- a placement is tried only if the total stays within the limit: `best - 1` when
  proving (only strictly better answers are wanted), `best` when counting solutions.
Restrictions picked by `flags`: GREEDY keeps only the placements adding the fewest
matches (all ties; `flags >> 8` widens that to the cheapest + slack), MAX_ADDED drops
placements adding more than 2t; the diagonal method
needs no flag, its placement tables hold only diagonal corners for the large sizes.

Beyond the write-up (FLAG_LOOKAHEAD): the final board contains the current board plus
some placement of every size still to come, so a node is dead as soon as one smaller
size u has no placement adding at most `limit - total` matches. Sizes are tried from the
next one down (nearly all dead nodes fail there) and only while 2u exceeds the slack (a
size-u square in the corner of the largest adds at most 2u). The check is skipped after
a free placement (the board did not change). It halves the nodes for n = 16..25.

Candidates of a node are visited in increasing order of the matches they add (a counting
sort), so good answers come early and, once one is over the limit, so are the rest.
Scans walk the placements row by row with the masks built in registers (ids follow the
tables' row-major order); sizes whose table holds only diagonal corners are walked
along the diagonal.

Measured (`measure.py`, benchmarks/profile_matchsticks_nodes.py, docs/matchsticks.md):
96 % of a proof's nodes are ended by the lookahead at once, so the tests of killed nodes
are the bulk of the work. They run on line counts (`kernel_lines.py`), kept per line as
the board changes and also bit-sliced: a size-u square on row lines y and y + u adds at
least 2u - min(u, matches on y) - min(u, matches on y + u) there (its row floor), likewise
for its columns, so
- the word test (`_may_fit`: two row lines and two column lines u apart each holding at
  least u - slack) runs for every lookahead size before any scan where no parent ran it;
- a scan for a placement within a slack walks only the rows and columns the floors leave,
  and ends at once when no row's floor plus the columns' least floor fits (97 % of the
  scans that fail end so);
- a parent tests its candidate's child before placing it, for up to PREKILL lookahead
  sizes: the child's least row floor plus least column floor must fit its slack. The
  least floors are the parent's (computed once, shared by the siblings), lowered only at
  the corners on the child's four lines (`_line_floor_after`); nearly every killed node
  dies there without being placed (proof of 24: all but 422 of 6,033,661), and is
  counted as the node it would have been.
A candidate is kept as one word (placement id << 12 | y << 6 | x), so a visit reads no
placement table. The symmetry test is a mask of the lines where row and
column differ, kept as the board changes; the candidate sort only spans costs up to the
slack.

Tried and left off by default (FLAG_PAIRS, descriptor key "pairs"): `kernel_pairs`, a bound
on two sizes at once -- every placement of size t - 1 within the slack, and size w
(t - 3 .. t - 6) after it within what is left. It halves the nodes (proof of 24: 6.29 to
3.47 million, same counts) but costs more CPU than it saves (about 1.3-1.6x more): the
nodes it cuts have cheap subtrees, and it must list some 37 placements of t - 1 each time.

The stack is explicit (arrays indexed by depth). The kernel polls the Budget every 2^16
nodes and publishes its node count and best value in `control`.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.result import BEST, NODES, should_stop
from puzzlelab.puzzles.matchsticks.kernel_lines import (
    _added,
    _bits,
    _column_masks,
    _diagonal_floor_after,
    _fits_within,
    _floor_min,
    _least_floor,
    _line_floor_after,
    _low,
    _mark,
    _may_fit,
    _pairs,
    _recount,
    _refill,
    _resym,
    _rows_within,
    _side_floor,
)
from puzzlelab.puzzles.matchsticks.kernel_pairs import _pair_dead

__all__ = [
    "search_kernel",
    "FLAG_COUNT",
    "FLAG_GREEDY",
    "FLAG_MAX_ADDED",
    "FLAG_LOOKAHEAD",
    "FLAG_PAIRS",
    "GREEDY_SLACK_SHIFT",
    "STAT_BEST",
    "STAT_COUNT",
    "STAT_NODES",
    "STAT_STATUS",
    "STAT_FOUND",
    "STAT_SPLITS",
    "STAT_KEPT",
    "STATUS_DONE",
    "STATUS_STOPPED",
    "STATUS_SPLIT_OVERFLOW",
]

FLAG_COUNT = 1  # limit is `best` (ties kept and counted) instead of `best - 1`
FLAG_GREEDY = 2  # only the cheapest placements of each size
FLAG_MAX_ADDED = 4  # a size-t square may add at most 2t matches
FLAG_PAIRS = 16  # prune a node where size t - 1 leaves no room for one of t - 3 .. t - 6 (`_pair_dead`; off by default)
FLAG_LOOKAHEAD = 8  # prune a node where some smaller size cannot be added within the limit
GREEDY_SLACK_SHIFT = 8  # flags >> 8: with GREEDY, also keep placements up to this many matches above the cheapest

STAT_BEST, STAT_COUNT, STAT_NODES, STAT_STATUS, STAT_FOUND, STAT_SPLITS, STAT_KEPT = 0, 1, 2, 3, 4, 5, 6
STATS_LEN = 8
# Per-depth trace counters (`trace[d, k]`; d = depth of the node, size n - d is placed):
# nodes expanded, killed by the lookahead (and the gap t - u to the size that failed),
# expansions that found a free placement, placements the scan visited (a free one ends
# the scan early; counted as the whole scan), candidates kept, expansions with none,
# candidates dropped because the total passed the limit, children placed (or killed
# unplaced by the parent's word test); then of the lookahead's kills those made by the
# parent before placing the node and those made by the node's own word test (the rest
# were made by a scan), live nodes (not killed, with a candidate) none of whose
# children was live and those nodes' children, complete boards reached, nodes with no
# slack left, and the slack summed over the live nodes. Columns from TRACE_LEN on, when
# the trace has them, count the live nodes by slack (TRACE_LEN + min(slack, 63)), the
# killed ones (TRACE_LEN + 64 + ...), and the barren and the other live nodes by the
# slack their cheapest child leaves (TRACE_LEN + 128 + ..., TRACE_LEN + 192 + ...).
(TRACE_EXPANDED, TRACE_LOOKAHEAD_DEAD, TRACE_DEAD_SIZE_GAP, TRACE_FREE, TRACE_SCANNED,
 TRACE_KEPT, TRACE_NO_CANDIDATE, TRACE_OVER_LIMIT, TRACE_CHILDREN, TRACE_PREKILLED,
 TRACE_WORD_DEAD, TRACE_BARREN, TRACE_BARREN_CHILDREN, TRACE_LEAVES, TRACE_NO_SLACK,
 TRACE_LIVE_SLACK) = range(16)
TRACE_LEN = 16
TRACE_SLACK_BINS = 64
STATUS_DONE, STATUS_STOPPED, STATUS_SPLIT_OVERFLOW = 0, 1, 2

_POLL_MASK = (1 << 16) - 1
PREKILL = 16  # lookahead sizes a parent tests (by the line-count floors) before placing a child (2: 1.0x, 8 and 16: 1.6x less CPU at n = 26)


@numba.njit(cache=True, nogil=True, _nrt=False)
def _trace_node(trace, histogram, node_live, child_live, kids, d, start, slack, dead, word_dead, has_candidate):
    """The trace's record of one expanded node (see TRACE_*): live when not killed and
    with a candidate (its parent then had a live child); word kills and slack."""
    live = not dead and has_candidate
    node_live[d] = live
    child_live[d] = False
    kids[d] = 0
    if live and d > start:
        child_live[d - 1] = True
    if word_dead:
        trace[d, TRACE_WORD_DEAD] += 1
    if slack == 0:
        trace[d, TRACE_NO_SLACK] += 1
    if live:
        trace[d, TRACE_LIVE_SLACK] += slack
    if histogram:
        bin = min(slack, TRACE_SLACK_BINS - 1)
        trace[d, TRACE_LEN + bin if live else TRACE_LEN + TRACE_SLACK_BINS + bin] += 1


@numba.njit(cache=True, nogil=True)
def search_kernel(n, area, pl_start, pl_x, pl_y, pl_h, pl_v, prefix, limit0, flags, split_depth, split_out, best_path, control, stats, trace, kept_out):
    """Depth-first search below `prefix` (placement ids of sizes n, n-1, ...).

    - `pl_start[t]:pl_start[t+1]` are the placement ids of size t; `pl_x`, `pl_y` their
      corners and `pl_h`, `pl_v` their row and column masks (uint64).
    - `limit0`: the starting bound (a known answer's total, or a large number).
    - `split_depth` > len(prefix): instead of descending below that depth, write each
      prefix reached (placement ids of depths 0..split_depth-1) as a row of `split_out`.
    - `best_path[d]` receives the placement id of depth d of the best answer found.
    - `stats` receives best, count (answers equal to best), nodes, status, found, splits.
    - `kept_out` (int64[k, n]) receives the first k answers equal to the best (their
      placement ids; stats[STAT_KEPT] of them), so that counted optimal solutions can
      be listed and classified.
    - `trace` (int64[n + 1, TRACE_LEN], or shape (0, 0) for none) adds per depth what
      the node did (TRACE_*): the measurements of `profile.py`.
    """
    tracing = trace.shape[0] > 0
    histogram = tracing and trace.shape[1] >= TRACE_LEN + 4 * TRACE_SLACK_BINS
    child_slack = np.zeros(n + 2, np.int64)  # (tracing) per depth: the slack its cheapest child leaves
    node_live = np.zeros(n + 2, np.bool_)  # (tracing) per depth: the node is live
    child_live = np.zeros(n + 2, np.bool_)  # (tracing) per depth: one of its children was
    kids = np.zeros(n + 2, np.int64)  # (tracing) per depth: children made so far
    one = np.uint64(1)
    words = area + 1
    empty = (one << np.uint64(area)) - one
    rows = np.empty(words, np.uint64)
    cols = np.empty(words, np.uint64)
    for i in range(words):
        rows[i] = empty
        cols[i] = empty
    counting = (flags & FLAG_COUNT) != 0
    greedy = (flags & FLAG_GREEDY) != 0
    max_added = (flags & FLAG_MAX_ADDED) != 0
    lookahead = (flags & FLAG_LOOKAHEAD) != 0
    pairs = (flags & FLAG_PAIRS) != 0
    greedy_slack = flags >> GREEDY_SLACK_SHIFT

    max_places = 1
    for t in range(1, n + 1):
        max_places = max(max_places, pl_start[t + 1] - pl_start[t])
    # A candidate is kept as one word, its placement id and corner together, so
    # that visiting it reads no placement table (those reads missed the cache).
    cand = np.empty((n + 1, max_places), np.int64)
    cand_cost = np.empty((n + 1, max_places), np.int32)
    raw_id = np.empty(max_places, np.int64)
    raw_cost = np.empty(max_places, np.int32)
    lx = np.empty(max_places, np.int64)
    ly = np.empty(max_places, np.int64)
    lcost = np.empty(max_places, np.int64)
    bucket = np.zeros(4 * n + 2, np.int64)
    ncand = np.zeros(n + 1, np.int64)
    pos = np.zeros(n + 1, np.int64)
    saved = np.empty((n + 1, 4), np.uint64)
    chosen = np.zeros(n + 1, np.int64)
    totals = np.zeros(n + 2, np.int64)
    hint_x = np.zeros(n + 1, np.int64)
    hint_y = np.zeros(n + 1, np.int64)
    fr = np.zeros(words, np.int64)
    fc = np.zeros(words, np.int64)
    masks = np.zeros(130, np.uint64)
    memo_k = np.zeros((n + 1, PREKILL), np.int64)  # per depth: whether the least floors below are known (1) or not (-1)
    memo_r = np.zeros((n + 1, PREKILL), np.int64)  # per depth and prekill size: the least row floor (`_least_floor`)
    memo_c = np.zeros((n + 1, PREKILL), np.int64)
    checked = np.zeros(n + 2, np.int64)  # per depth: lookahead sizes its parent tried (word test) and found passing
    rr = np.zeros(6, np.uint64)  # row and column line counts, bit-sliced (a count is at most 63)
    rc = np.zeros(6, np.uint64)
    diagonal_only = np.zeros(n + 1, np.bool_)
    for t in range(1, n + 1):
        side = area - t + 1
        diagonal_only[t] = pl_start[t + 1] - pl_start[t] == side and side > 1

    best = limit0
    count = 0
    kept_answers = 0
    found = 0
    nodes = 0
    splits = 0
    status = STATUS_DONE

    # Replay the prefix.
    depth = 0
    for d in range(prefix.shape[0]):
        p = prefix[d]
        t = n - d
        x = pl_x[p]
        y = pl_y[p]
        h = pl_h[p]
        v = pl_v[p]
        c = _added(rows, cols, t, x, y, h, v)
        saved[d, 0] = rows[y]
        saved[d, 1] = rows[y + t]
        saved[d, 2] = cols[x]
        saved[d, 3] = cols[x + t]
        rows[y] &= ~h
        rows[y + t] &= ~h
        cols[x] &= ~v
        cols[x + t] &= ~v
        chosen[d] = p
        totals[d + 1] = totals[d] + c
        depth = d + 1
    start = depth
    limit = best if counting else best - 1
    asym = np.uint64(0)
    for i in range(words):
        asym = _mark(rows, cols, asym, i)
    for i in range(words):
        _recount(fr, rr, i, _bits(~rows[i] & empty))
        _recount(fc, rc, i, _bits(~cols[i] & empty))


    if totals[start] > limit:
        depth = -1  # nothing below this prefix can be within the limit
    elif start == n:
        found = 1
        best = totals[n]
        count = 1
        for d in range(n):
            best_path[d] = chosen[d]
            if kept_out.shape[0] > 0:
                kept_out[0, d] = chosen[d]
        kept_answers = min(1, kept_out.shape[0])
        depth = -1
    else:
        ncand[start] = 0

    expand = depth >= 0
    while depth >= 0:
        if expand:
            expand = False
            d = depth
            t = n - d
            base = totals[d]
            symmetric = asym == 0
            m_count = 0
            cheapest = 4 * t + 1
            free_id = -1
            dead = False
            word_dead = False
            dead_u = 0
            slack = limit - base
            if lookahead and (d == start or cand_cost[d - 1, pos[d - 1] - 1] > 0):
                # First the word-operation test of every size, then the scans.
                # (the sizes the parent already tried for this child are skipped; a
                # size within the slack, u <= slack, passes, and so do the smaller)
                for u in range(min(t - 1, slack) if checked[d] == 0 else 0, slack // 2, -1):
                    if not _may_fit(rr, rc, area, u, diagonal_only[u], slack):
                        dead = True
                        word_dead = True
                        dead_u = u
                        break
                if not dead:
                    for u in range(t - 1, slack // 2, -1):
                        if not _fits_within(rows, cols, area, u, diagonal_only[u], slack, hint_x, hint_y, fr, fc, rr, rc, masks):
                            dead = True
                            dead_u = u
                            break
                if not dead and pairs:
                    dead_u = _pair_dead(rows, cols, empty, area, t, slack, hint_x, hint_y, fr, fc, rr, rc, masks, diagonal_only, lx, ly, lcost)
                    dead = dead_u > 0
            if tracing:
                trace[d, TRACE_EXPANDED] += 1
                if dead:
                    trace[d, TRACE_LOOKAHEAD_DEAD] += 1
                    trace[d, TRACE_DEAD_SIZE_GAP] += t - dead_u
            side = area - t + 1
            run = (one << np.uint64(t)) - one
            # Only placements adding at most `slack` matches can be kept (greedy's
            # cheapest among them is the true cheapest whenever it can be kept), so
            # rows and columns whose lines cannot give one are skipped (`_side_floor`).
            rmask = np.uint64(0) if dead else _pairs(rr, t, slack, side)
            cmask = np.uint64(0) if rmask == 0 else _pairs(rc, t, slack, side)
            if not diagonal_only[t]:
                rmask = _rows_within(fr, rmask, t, slack, _floor_min(fc, cmask, t)) if cmask else np.uint64(0)
            top_k = 0 if rmask == 0 or diagonal_only[t] else _column_masks(fc, t, cmask, slack, masks)
            # Greedy keeps only the cheapest (+ its slack), so once a placement of cost
            # c is seen, rows and columns that cannot give c + greedy_slack are skipped
            # too. The threshold starts from size t's last lookahead placement (a legal
            # placement, or under symmetry the mirror of one, which costs the same).
            within = slack
            if greedy and not dead:
                hx = hint_x[t]
                hy = hint_y[t]
                within = min(slack, _added(rows, cols, t, hx, hy, run << np.uint64(hx), run << np.uint64(hy)) + greedy_slack)
            while rmask:
                y = _low(rmask)
                rmask &= rmask - one
                room = within - _side_floor(fr, y, t)
                if room < 0:
                    continue
                top = rows[y]
                bottom = rows[y + t]
                v = run << np.uint64(y)
                if diagonal_only[t]:
                    m = (one << np.uint64(y)) if _side_floor(fc, y, t) <= room and (cmask >> np.uint64(y)) & one else np.uint64(0)
                    p0 = pl_start[t]
                else:
                    m = masks[min(room, top_k)]
                    if symmetric:
                        m &= ~((one << np.uint64(y)) - one)
                    p0 = pl_start[t] + y * side
                while m:
                    x = _low(m)
                    m &= m - one
                    h = run << np.uint64(x)
                    c = _bits(top & h) + _bits(bottom & h) + _bits(cols[x] & v) + _bits(cols[x + t] & v)
                    p = ((p0 + x) << 12) | (y << 6) | x  # the placement id and its corner
                    if c == 0:
                        free_id = p
                        break
                    if not (max_added and c > 2 * t):
                        if c < cheapest:
                            cheapest = c
                            if greedy and c + greedy_slack < within:
                                within = c + greedy_slack
                        if c <= slack:
                            raw_id[m_count] = p
                            raw_cost[m_count] = c
                            m_count += 1
                if free_id >= 0:
                    break
            if tracing and not dead:
                trace[d, TRACE_SCANNED] += side if diagonal_only[t] else (side * side + side) // 2 if symmetric else side * side
            if free_id >= 0:
                if tracing:
                    trace[d, TRACE_FREE] += 1
                cand[d, 0] = free_id
                cand_cost[d, 0] = 0
                ncand[d] = 1
            else:
                # Counting sort by matches added (stable: placement order within a
                # cost), keeping only costs up to `top` (greedy: the cheapest + slack).
                top = min(4 * t, cheapest + greedy_slack) if greedy else 4 * t
                if top > slack:
                    top = slack  # every candidate kept adds at most `slack`
                if m_count == 0:
                    top = -1
                for c in range(top + 2):
                    bucket[c] = 0
                for i in range(m_count):
                    if raw_cost[i] <= top:
                        bucket[raw_cost[i] + 1] += 1
                for c in range(1, top + 2):
                    bucket[c] += bucket[c - 1]
                kept = bucket[top + 1]
                for i in range(m_count):
                    c = raw_cost[i]
                    if c <= top:
                        j = bucket[c]
                        bucket[c] = j + 1
                        cand[d, j] = raw_id[i]
                        cand_cost[d, j] = c
                ncand[d] = kept
                if tracing:
                    trace[d, TRACE_KEPT] += kept
                    if kept == 0 and not dead:
                        trace[d, TRACE_NO_CANDIDATE] += 1
            if tracing:
                _trace_node(trace, histogram, node_live, child_live, kids, d, start, slack, dead, word_dead, ncand[d] > 0)
                child_slack[d] = slack - cand_cost[d, 0] if ncand[d] > 0 else 0
            pos[d] = 0
            for j in range(PREKILL):
                memo_k[d, j] = -1

        d = depth
        if pos[d] < ncand[d]:
            i = pos[d]
            pos[d] = i + 1
            c = cand_cost[d, i]
            if totals[d] + c > limit:
                if tracing:
                    trace[d, TRACE_OVER_LIMIT] += ncand[d] - i
                pos[d] = ncand[d]  # sorted by cost: the rest are over the limit too
                continue
            key = cand[d, i]
            p = key >> 12
            x = key & 63
            y = (key >> 6) & 63
            t = n - d
            checked[d + 1] = 0
            run = (one << np.uint64(t)) - one
            h = run << np.uint64(x)
            v = run << np.uint64(y)
            if lookahead and c > 0 and d + 1 < n and d + 1 != split_depth:
                # The child's lookahead, first sizes of its word-operation pass, done
                # here before the child is placed: a child it kills is counted as
                # the node it would have been (same nodes, same trace).
                rest = limit - totals[d] - c
                ny0 = _bits(rows[y] & h)
                ny1 = _bits(rows[y + t] & h)
                nx0 = _bits(cols[x] & v)
                nx1 = _bits(cols[x + t] & v)
                killed = 0
                checked[d + 1] = PREKILL
                for u in range(t - 2, max(rest // 2, t - 2 - PREKILL), -1):
                    # A size-u square adds at least the least row floor plus the
                    # least column floor: on the child's counts, the parent's least
                    # floors (shared by the siblings) lowered where the child's four
                    # lines gained (`_floors_after`).
                    j = t - 2 - u
                    side_u = area - u + 1
                    if memo_k[d, j] < 0:
                        memo_k[d, j] = 1
                        memo_r[d, j], memo_c[d, j] = _least_floor(fr, fc, u, side_u, diagonal_only[u])
                    least_row = memo_r[d, j]
                    least_col = memo_c[d, j]
                    if least_row + least_col <= rest:
                        continue  # the child's gains only lower the floors
                    if diagonal_only[u]:
                        if _diagonal_floor_after(least_row, fr, fc, u, side_u, t, x, y, ny0, ny1, nx0, nx1) > rest:
                            killed = u
                            break
                        continue
                    least_row = _line_floor_after(least_row, fr, u, side_u, y, t, ny0, ny1)
                    if least_row + least_col > rest and least_row + _line_floor_after(least_col, fc, u, side_u, x, t, nx0, nx1) > rest:
                        killed = u
                        break
                if killed:
                    nodes += 1
                    if tracing:
                        trace[d, TRACE_CHILDREN] += 1
                        trace[d + 1, TRACE_EXPANDED] += 1
                        trace[d + 1, TRACE_LOOKAHEAD_DEAD] += 1
                        trace[d + 1, TRACE_DEAD_SIZE_GAP] += t - 1 - killed
                        trace[d + 1, TRACE_PREKILLED] += 1
                        trace[d + 1, TRACE_NO_SLACK] += rest == 0
                        kids[d] += 1
                        if histogram:
                            trace[d + 1, TRACE_LEN + TRACE_SLACK_BINS + min(rest, TRACE_SLACK_BINS - 1)] += 1
                    if (nodes & _POLL_MASK) == 0:
                        control[NODES] = nodes
                        control[BEST] = best
                        if should_stop(control):
                            status = STATUS_STOPPED
                            break
                    continue
            saved[d, 0] = rows[y]
            saved[d, 1] = rows[y + t]
            saved[d, 2] = cols[x]
            saved[d, 3] = cols[x + t]
            rows[y] &= ~h
            rows[y + t] &= ~h
            cols[x] &= ~v
            cols[x + t] &= ~v
            _refill(rows, cols, empty, fr, fc, rr, rc, t, x, y)
            asym = _resym(rows, cols, asym, t, x, y)
            chosen[d] = p
            total = totals[d] + c
            totals[d + 1] = total
            nodes += 1
            if tracing:
                trace[d, TRACE_CHILDREN] += 1
                kids[d] += 1
            if (nodes & _POLL_MASK) == 0:
                control[NODES] = nodes
                control[BEST] = best
                if should_stop(control):
                    status = STATUS_STOPPED
                    break
            leaf = d + 1 == n
            cut = d + 1 == split_depth
            if leaf:
                if tracing:
                    trace[d, TRACE_LEAVES] += 1
                    child_live[d] = True
                if found == 0 or total < best:
                    best = total
                    count = 1
                    found = 1
                    for k in range(n):
                        best_path[k] = chosen[k]
                    limit = best if counting else best - 1
                    kept_answers = 0
                else:
                    count += 1
                if kept_answers < kept_out.shape[0]:
                    for k in range(n):
                        kept_out[kept_answers, k] = chosen[k]
                    kept_answers += 1
            elif cut:
                if splits < split_out.shape[0]:
                    for k in range(split_depth):
                        split_out[splits, k] = chosen[k]
                    splits += 1
                else:
                    status = STATUS_SPLIT_OVERFLOW
                    break
            if leaf or cut:
                rows[y] = saved[d, 0]
                rows[y + t] = saved[d, 1]
                cols[x] = saved[d, 2]
                cols[x + t] = saved[d, 3]
                _refill(rows, cols, empty, fr, fc, rr, rc, t, x, y)
                asym = _resym(rows, cols, asym, t, x, y)
                continue
            depth = d + 1
            expand = True
        else:
            if tracing and node_live[d]:
                if not child_live[d]:
                    trace[d, TRACE_BARREN] += 1
                    trace[d, TRACE_BARREN_CHILDREN] += kids[d]
                if histogram:
                    trace[d, TRACE_LEN + (2 if not child_live[d] else 3) * TRACE_SLACK_BINS + min(child_slack[d], TRACE_SLACK_BINS - 1)] += 1
            if d == start:
                break
            depth = d - 1
            d = depth
            p = chosen[d]
            t = n - d
            x = pl_x[p]
            y = pl_y[p]
            rows[y] = saved[d, 0]
            rows[y + t] = saved[d, 1]
            cols[x] = saved[d, 2]
            cols[x + t] = saved[d, 3]
            _refill(rows, cols, empty, fr, fc, rr, rc, t, x, y)
            asym = _resym(rows, cols, asym, t, x, y)

    control[NODES] = nodes
    control[BEST] = best
    stats[STAT_BEST] = best
    stats[STAT_COUNT] = count
    stats[STAT_NODES] = nodes
    stats[STAT_STATUS] = status
    stats[STAT_FOUND] = found
    stats[STAT_SPLITS] = splits
    stats[STAT_KEPT] = kept_answers
    return splits
