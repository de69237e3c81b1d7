"""The numba kernels of the MacMahon package: the edge-matching search and the symmetry
classifier of the solutions it emits.

`search_kernel` fills the cells in a fixed order (`order`; the border ring first by
default). For each position the colours its sides must carry are known in advance from
which sides touch the border or an earlier cell (`need`), so the candidates are read from
a table indexed by that constraint (`cand_start`), listing every piece only in its
distinct orientations. Pieces come with multiplicities (`counts`). All of the search
state lives in arrays owned by the caller, so the kernel can stop at any node (buffer
full, node quota reached for a progress report, budget over) and resume where it
stopped; the same kernel counts a whole tree or the subtree below a given prefix
(`state[FLOOR]`), and with `state[STOP] < cells` it lists the prefixes that split the
search into subtrees for worker processes.

`classify_kernel` takes emitted solutions and, for every element of the instance's
symmetry group (a board symmetry with a colour permutation), compares the image with the
solution: it counts fixed points per element (for Burnside's lemma), solutions that are
the lexicographically least of their orbit in each requested subgroup (one per class),
and the orbit sizes; it keeps the least representatives of the symmetric classes.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.bits import ctz
from puzzlelab.core.result import NODES, should_stop

# slots of the int64 `state` array
DEPTH, FLOOR, STOP, TOTAL, SEARCH_NODES, NBUF, CAPACITY, STATUS = range(8)
STATE_SLOTS = 8
# kernel exit statuses
DONE, BUFFER_FULL, QUOTA, STOPPED = 0, 1, 2, 3


@numba.njit(cache=True, nogil=True)
def _place(p, sign, cell, neighbour, border, free_code, mult, filled, side_colour, cand_piece, cand_col,
           piece_colours, remaining, demand, counts, piece_key_start, piece_keys, key_mask, key_count,
           cell_key, cell_known, mate, load):
    """Put candidate p into `cell` (sign = -1) or lift it out again (sign = +1).

    - availability: when the last copy of a piece goes (or the first comes back), every
      candidate-table key listing it is updated, so an open cell's options are read in
      O(1): `key_count[key]` entries, `key_mask[key]` pieces (bits, for the matching);
    - colour balance: the piece's sides leave `remaining`; a side whose colour was
      demanded (fixed border, filled neighbour) stops being demanded; a side facing an
      open cell starts demanding its colour there;
    - the keys of the open neighbours (`cell_key`, `cell_known`) gain or lose this colour;
    - a filled cell leaves the matching (`mate`, `load`).
    Lifting happens in reverse order of putting, so every open cell's key stays exact.
    """
    k = neighbour.shape[1]
    piece = cand_piece[p]
    counts[piece] += sign
    if (sign < 0 and counts[piece] == 0) or (sign > 0 and counts[piece] == 1):
        bit = np.uint64(1) << np.uint64(piece & 63)
        for e in range(piece_key_start[piece], piece_key_start[piece + 1]):
            key = piece_keys[e]
            key_count[key] += sign
            if sign < 0:
                key_mask[key] &= ~bit
            else:
                key_mask[key] |= bit
    for col in range(remaining.shape[0]):
        remaining[col] += sign * piece_colours[piece, col]
    if sign < 0:
        filled[cell] = 1
        if mate[cell] >= 0:
            load[mate[cell]] -= 1
            mate[cell] = -1
    else:
        filled[cell] = 0
    for s in range(k):
        col = np.int64(cand_col[p, s])
        nb = neighbour[cell, s]
        if nb < 0:
            if border >= 0:
                demand[col] += sign
            continue
        other = nb // k
        if filled[other]:
            demand[col] += sign
        else:
            demand[col] -= sign
            cell_key[other] -= sign * (col - free_code) * mult[nb % k]
            cell_known[other] -= sign
        if sign < 0:
            side_colour[cell * k + s] = cand_col[p, s]


@numba.njit(cache=True, nogil=True, inline="always")
def _balanced(remaining, demand, parity):
    """Colour balance of what is left: every demanded side needs a remaining side of its
    colour, and with a fixed border the rest pair up inside (an even number)."""
    for col in range(remaining.shape[0]):
        slack = remaining[col] - demand[col]
        if slack < 0 or (parity and (slack & 1)):
            return False
    return True


@numba.njit(cache=True, nogil=True)
def _matching_holds(open_cells, n_open, cell_key, key_mask, counts, mate, load, queue, parent, via, queued):
    """Can every open cell get its own piece (piece p at most counts[p] times), each cell
    choosing among the pieces that fit it? The matching is kept from node to node: only
    cells whose piece no longer fits (or is over-used) are re-matched, greedily or along
    an augmenting path (breadth-first, Kuhn). A failed Hall condition (say, five border
    cells left but four pieces with a border colour) prunes the whole subtree."""
    one = np.uint64(1)
    for i in range(n_open):
        u = open_cells[i]
        m = mate[u]
        if m >= 0 and (((key_mask[cell_key[u]] >> np.uint64(m)) & one) == 0 or load[m] > counts[m]):
            load[m] -= 1
            mate[u] = -1
    free = np.uint64(0)
    for q in range(counts.shape[0]):
        if load[q] < counts[q]:
            free |= one << np.uint64(q)
    for i in range(n_open):
        u = open_cells[i]
        if mate[u] >= 0:
            continue
        m = key_mask[cell_key[u]] & free
        if m:
            q = np.int64(ctz(m))
            mate[u] = q
            load[q] += 1
            if load[q] >= counts[q]:
                free &= ~(one << np.uint64(q))
            continue
        # augmenting path from u
        for j in range(n_open):
            queued[j] = 0
        seen = np.uint64(0)
        queue[0] = i
        queued[i] = 1
        parent[i] = -1
        via[i] = -1
        head, tail = 0, 1
        end, end_piece = -1, -1
        while head < tail and end_piece < 0:
            a = queue[head]
            head += 1
            m = key_mask[cell_key[open_cells[a]]] & ~seen
            while m:
                q = np.int64(ctz(m))
                m &= m - one
                seen |= one << np.uint64(q)
                if load[q] < counts[q]:
                    end, end_piece = a, q
                    break
                for j in range(n_open):
                    if not queued[j] and mate[open_cells[j]] == q:
                        queued[j] = 1
                        parent[j] = a
                        via[j] = q
                        queue[tail] = j
                        tail += 1
        if end_piece < 0:
            return False
        load[end_piece] += 1
        if load[end_piece] >= counts[end_piece]:
            free &= ~(one << np.uint64(end_piece))
        a, q = end, end_piece
        while a >= 0:
            nxt = via[a]
            mate[open_cells[a]] = q
            q = nxt
            a = parent[a]
    return True


@numba.njit(cache=True, nogil=True)
def search_kernel(neighbour, border, free_code, mult, cand_start, cand_piece, cand_code, cand_col,
                  order, dynamic, matching, piece_colours, parity, piece_key_start, piece_keys,
                  counts, filled, side_colour, placed, chosen, pos, hi, remaining, demand, key_mask, key_count,
                  cell_key, cell_known, mate, load, state, buf, quota, control):
    """Run the search from `state` until done, the buffer is full, `quota` more nodes
    were visited, or the budget in `control` says stop. Returns the exit status.

    Each depth fills one cell: `order[depth]` (static orders), or with `dynamic` the open
    cell with the fewest fitting candidates (fail first; ties: more fixed sides, then
    earlier in `order`). A branch ends as soon as an open cell has no candidate, the
    colour balance fails, or (`matching`) the open cells cannot all get different pieces.
    """
    n = filled.shape[0]
    depth = state[DEPTH]
    floor = state[FLOOR]
    stop = state[STOP]
    total = state[TOTAL]
    nodes = state[SEARCH_NODES]
    nbuf = state[NBUF]
    capacity = state[CAPACITY]
    quota_end = nodes + quota
    next_check = nodes + 16384
    status = DONE
    open_cells = np.zeros(n, dtype=np.int64)
    queue = np.zeros(n, dtype=np.int64)
    parent = np.zeros(n, dtype=np.int64)
    via = np.zeros(n, dtype=np.int64)
    queued = np.zeros(n, dtype=np.int8)
    while depth >= floor:
        p = pos[depth]
        if p < 0:
            # entering this depth: pick the cell and its candidate range
            if dynamic:
                best = -1
                best_count = 1 << 40
                best_known = -1
                n_open = 0
                dead = False
                for i in range(n):
                    cell = order[i]
                    if filled[cell]:
                        continue
                    open_cells[n_open] = cell
                    n_open += 1
                    known = cell_known[cell]
                    cnt = key_count[cell_key[cell]]
                    if cnt == 0:
                        best = cell
                        dead = True
                        break
                    if known == 0:
                        cnt = 1 << 39
                    if cnt < best_count or (cnt == best_count and known > best_known):
                        best, best_count, best_known = cell, cnt, known
                if matching and not dead:
                    dead = not _matching_holds(open_cells, n_open, cell_key, key_mask, counts, mate, load, queue, parent, via, queued)
                cell = best
                chosen[depth] = cell
                if dead:
                    p = 0
                    hi[depth] = 0
                else:
                    p = cand_start[cell_key[cell]]
                    hi[depth] = cand_start[cell_key[cell] + 1]
            else:
                cell = order[0]
                for i in range(n):  # the first open cell in the fixed order (a prefix may sit anywhere)
                    if not filled[order[i]]:
                        cell = order[i]
                        break
                chosen[depth] = cell
                p = cand_start[cell_key[cell]]
                hi[depth] = cand_start[cell_key[cell] + 1]
        else:
            cell = chosen[depth]
            _place(p, 1, cell, neighbour, border, free_code, mult, filled, side_colour, cand_piece, cand_col,
                   piece_colours, remaining, demand, counts, piece_key_start, piece_keys, key_mask, key_count,
                   cell_key, cell_known, mate, load)
            p += 1
        h = hi[depth]
        found = False
        while p < h:
            if counts[cand_piece[p]] == 0:
                p += 1
                continue
            nodes += 1
            _place(p, -1, cell, neighbour, border, free_code, mult, filled, side_colour, cand_piece, cand_col,
                   piece_colours, remaining, demand, counts, piece_key_start, piece_keys, key_mask, key_count,
                   cell_key, cell_known, mate, load)
            if _balanced(remaining, demand, parity):
                found = True
                break
            _place(p, 1, cell, neighbour, border, free_code, mult, filled, side_colour, cand_piece, cand_col,
                   piece_colours, remaining, demand, counts, piece_key_start, piece_keys, key_mask, key_count,
                   cell_key, cell_known, mate, load)
            p += 1
        if not found:
            pos[depth] = -1
            depth -= 1
            continue
        pos[depth] = p
        placed[cell] = cand_code[p]
        if depth + 1 == stop:
            total += 1
            if capacity > 0:
                for c in range(n):
                    buf[nbuf, c] = placed[c]
                nbuf += 1
                if nbuf >= capacity:
                    status = BUFFER_FULL
                    break
        else:
            depth += 1
            pos[depth] = -1
        if nodes >= next_check:
            next_check = nodes + 16384
            control[NODES] = nodes
            if should_stop(control):
                status = STOPPED
                break
            if nodes >= quota_end:
                status = QUOTA
                break
    state[DEPTH] = depth
    state[TOTAL] = total
    state[SEARCH_NODES] = nodes
    state[NBUF] = nbuf
    state[STATUS] = status
    control[NODES] = nodes
    return status


@numba.njit(cache=True, nogil=True)
def classify_kernel(buf, nbuf, code_colour, sym_perm, sym_cmap, member, group_order,
                    fix, classes, orbit_hist, occupancy, sym_reps, sym_count,
                    collect_group, collected, collect_count):
    """Classify `nbuf` solutions of `buf` (rows of piece*k + rotation per cell) under the
    symmetry elements (sym_perm[g]: flat side index -> image index; sym_cmap[g]: colour
    map) and the subgroups `member[group, g]` (group 0 is the whole group).

    Accumulates fix[g] (solutions fixed by g), classes[group] (solutions least in their
    orbit), orbit_hist[group, size], occupancy[cell, piece]; copies the least
    representatives of full-group classes with a non-trivial stabiliser to `sym_reps`
    and those of `collect_group` to `collected` (counts go on past the capacities)."""
    n_sym = sym_perm.shape[0]
    flat = sym_perm.shape[1]
    k = code_colour.shape[1]
    cells = buf.shape[1]
    n_groups = member.shape[0]
    sol = np.empty(flat, dtype=np.int8)
    image = np.empty(flat, dtype=np.int8)
    cmp = np.empty(n_sym, dtype=np.int8)
    for i in range(nbuf):
        for c in range(cells):
            code = buf[i, c]
            occupancy[c, code // k] += 1
            for s in range(k):
                sol[c * k + s] = code_colour[code, s]
        for g in range(n_sym):
            for p in range(flat):
                image[sym_perm[g, p]] = sym_cmap[g, sol[p]]
            result = 0
            for p in range(flat):
                if image[p] != sol[p]:
                    result = -1 if image[p] < sol[p] else 1
                    break
            cmp[g] = result
            if result == 0:
                fix[g] += 1
        for grp in range(n_groups):
            least = True
            stab = 0
            for g in range(n_sym):
                if member[grp, g]:
                    if cmp[g] < 0:
                        least = False
                        break
                    if cmp[g] == 0:
                        stab += 1
            if not least:
                continue
            classes[grp] += 1
            orbit_hist[grp, group_order[grp] // stab] += 1
            if grp == 0 and stab > 1:
                if sym_count[0] < sym_reps.shape[0]:
                    sym_reps[sym_count[0], :] = buf[i, :]
                sym_count[0] += 1
            if grp == collect_group:
                if collect_count[0] < collected.shape[0]:
                    collected[collect_count[0], :] = buf[i, :]
                collect_count[0] += 1


@numba.njit(cache=True, nogil=True)
def expand_kernel(buf, nbuf, code_colour, perms, decode, colours, out):
    """Images of `nbuf` solutions under board symmetries: out[i * G + g] is solution i
    moved by perms[g] (flat side index -> image index), re-read as piece codes through
    `decode` (colour tuple, as sum col_s * colours^s -> piece*k + least rotation)."""
    n_img = perms.shape[0]
    flat = perms.shape[1]
    k = code_colour.shape[1]
    cells = buf.shape[1]
    image = np.empty(flat, dtype=np.int64)
    for i in range(nbuf):
        for g in range(n_img):
            for c in range(cells):
                code = buf[i, c]
                for s in range(k):
                    image[perms[g, c * k + s]] = code_colour[code, s]
            row = i * n_img + g
            for c in range(cells):
                key = 0
                mul = 1
                for s in range(k):
                    key += image[c * k + s] * mul
                    mul *= colours
                out[row, c] = decode[key]
