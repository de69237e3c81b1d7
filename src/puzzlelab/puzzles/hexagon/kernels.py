"""The numba kernel of the hexagon puzzle: beam search with incremental penalty
evaluation (seed write-up, "Algorithms": a pool of partial grids extended one cell at
a time in a fixed order, fitness = penalty edges).

A state is the *frontier* of a partial grid: the cells already given a value that
still have neighbours without one. Each frontier cell sits in a slot (reused once the
cell is closed) holding its value and the mask of lower values it has seen. Giving the
next cell a value only touches its already-placed neighbours, so a child's penalty and
feasibility cost O(6): an equal pair costs one (values up to `top`), a second support
of the same value costs one, and a cell whose missing supports outnumber its neighbours
still to come is dead. A Zobrist hash of the frontier merges states that have the same
future (same slots, values and masks); its seeded keys also break ties at random.

Values are 1..top, and top+1 for "more than top" (top = 5: the 6s and 7s are split
afterwards, which never costs a penalty).
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.result import BEST, NODES, should_stop

__all__ = ["beam_kernel"]

MASK_STATES = 64  # seen-masks use bits 0..5 (values 1..6)


@numba.njit(cache=True, nogil=True)
def _need(value, mask, top):
    """Supports value still lacks: values 1..min(value-1, top) not in mask."""
    k = value - 1
    if k > top:
        k = top
    required = (1 << k) - 1
    missing = required & ~mask
    count = 0
    while missing:
        missing &= missing - 1
        count += 1
    return count


@numba.njit(cache=True, nogil=True)
def beam_kernel(own_slot, own_rem, prev_slot, prev_rem, close_slot, allowed, top, slots, width, zobrist, cutoff, control):
    """Beam search over cells in a fixed order.

    Per step i (the i-th cell of the order): own_slot[i] its frontier slot, own_rem[i]
    its neighbours still to come; prev_slot[i, k] the slots of its placed neighbours
    (-1 padded) and prev_rem[i, k] how many neighbours each still awaits after step i;
    close_slot[i, k] the slots freed after step i (cells now closed, -1 padded);
    allowed[i] a bit mask of permitted values (bit v-1 for value v).

    Returns (history_parent, history_value, final_penalty, final_count, steps_done):
    the parent index and value of every kept state per step, to rebuild grids.
    """
    steps = own_slot.shape[0]
    history_parent = np.full((steps, width), -1, dtype=np.int32)
    history_value = np.zeros((steps, width), dtype=np.int8)
    values = np.zeros((width, slots), dtype=np.int8)
    masks = np.zeros((width, slots), dtype=np.int8)
    penalty = np.zeros(width, dtype=np.int32)
    hashes = np.zeros(width, dtype=np.uint64)
    new_values = np.zeros((width, slots), dtype=np.int8)
    new_masks = np.zeros((width, slots), dtype=np.int8)
    new_penalty = np.zeros(width, dtype=np.int32)
    new_hashes = np.zeros(width, dtype=np.uint64)
    choices = top + 1
    cand_key = np.zeros(width * choices, dtype=np.int64)
    cand_parent = np.zeros(width * choices, dtype=np.int32)
    cand_value = np.zeros(width * choices, dtype=np.int8)
    count = 1  # one empty state
    nodes = 0
    hash_bits = np.uint64((1 << 40) - 1)
    for i in range(steps):
        if should_stop(control):
            return history_parent, history_value, penalty, 0, i
        m = 0
        s_own = own_slot[i]
        for p in range(count):
            for x in range(1, choices + 1):
                if not (allowed[i] >> (x - 1)) & 1:
                    continue
                pen = penalty[p]
                h = hashes[p]
                mask_c = 0
                ok = True
                for k in range(6):
                    s = prev_slot[i, k]
                    if s < 0:
                        break
                    y = values[p, s]
                    my = masks[p, s]
                    new_my = my
                    if y == x:
                        if x <= top:
                            pen += 1
                    elif y < x:
                        bit = 1 << (y - 1)
                        if mask_c & bit:
                            pen += 1
                        else:
                            mask_c |= bit
                    else:
                        bit = 1 << (x - 1)
                        if my & bit:
                            pen += 1
                        else:
                            new_my = my | bit
                    if _need(y, new_my, top) > prev_rem[i, k]:
                        ok = False
                        break
                    if new_my != my:
                        h ^= zobrist[s, y, my] ^ zobrist[s, y, new_my]
                    if prev_rem[i, k] == 0:
                        h ^= zobrist[s, y, new_my]  # closed: leaves the frontier
                if not ok or pen > cutoff:
                    continue
                if _need(x, mask_c, top) > own_rem[i]:
                    continue
                if own_rem[i] > 0:
                    h ^= zobrist[s_own, x, mask_c]
                cand_key[m] = (np.int64(pen) << 40) | np.int64(h & hash_bits)
                cand_parent[m] = p
                cand_value[m] = x
                m += 1
        nodes += m
        control[NODES] = nodes
        if m == 0:
            return history_parent, history_value, penalty, 0, i
        order = np.argsort(cand_key[:m])
        kept = 0
        last_key = np.int64(-1)
        for t in range(m):
            if kept >= width:
                break
            c = order[t]
            key = cand_key[c]
            if key == last_key:
                continue  # same penalty and same frontier as a kept state
            last_key = key
            p = cand_parent[c]
            x = cand_value[c]
            for s in range(slots):
                new_values[kept, s] = values[p, s]
                new_masks[kept, s] = masks[p, s]
            mask_c = 0
            for k in range(6):
                s = prev_slot[i, k]
                if s < 0:
                    break
                y = values[p, s]
                if y < x:
                    mask_c |= 1 << (y - 1)
                elif y > x:
                    new_masks[kept, s] |= 1 << (x - 1)
            new_values[kept, s_own] = x
            new_masks[kept, s_own] = mask_c
            for k in range(6):
                s = close_slot[i, k]
                if s < 0:
                    break
                new_values[kept, s] = 0
                new_masks[kept, s] = 0
            new_penalty[kept] = np.int32(key >> 40)
            new_hashes[kept] = np.uint64(key & hash_bits)
            history_parent[i, kept] = p
            history_value[i, kept] = x
            kept += 1
        count = kept
        values, new_values = new_values, values
        masks, new_masks = new_masks, masks
        penalty, new_penalty = new_penalty, penalty
        hashes, new_hashes = new_hashes, hashes
        control[BEST] = penalty[0]
    return history_parent, history_value, penalty, count, steps
