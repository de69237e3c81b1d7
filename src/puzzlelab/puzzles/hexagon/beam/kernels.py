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

__all__ = ["beam_kernel", "beam_kernel_packed", "value_bits"]

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


# ---------------------------------------------------------------- the tuned kernel
# The write-up's two beam tunings ("Beam search"): "a lookaside cache that let me
# calculate all the penalties for all assignments to a given cell if I had seen a
# similar situation before", and "compressed each cell value into the fewest number of
# bits required". beam_kernel above is kept as the reference they are checked against
# (tests) and measured against (benchmarks/bench_hexagon_beam.py).


def value_bits(top):
    """Bits a packed cell takes: values 1..top+1 stored as 0..top (one level: 1 bit,
    two or three: 2, more: 3, as the write-up counts)."""
    bits = 1
    while (1 << bits) < top + 1:
        bits += 1
    return bits


@numba.njit(cache=True, nogil=True)
def _situation(values, masks, p, prev_slot, i):
    """The cache key of state p at step i: the value (3 bits) and seen-mask (6 bits) of
    each placed neighbour, 9 bits each, at most 54 bits. With the step's fixed slots,
    remaining counts and allowed values it decides every child's penalty and hash."""
    key = np.int64(0)
    for k in range(6):
        s = prev_slot[i, k]
        if s < 0:
            break
        key = (key << 9) | (np.int64(values[p, s]) << 6) | np.int64(masks[p, s])
    return key


@numba.njit(cache=True, nogil=True)
def _children(values, masks, p, i, prev_slot, prev_rem, own_slot, own_rem, allowed, top, zobrist, out_pen, out_hash):
    """Every child of state p at step i, as beam_kernel computes them: out_pen[x-1] the
    penalty added by value x (-1: x not allowed or a dead end), out_hash[x-1] the
    Zobrist change (xor) of the frontier."""
    s_own = own_slot[i]
    for x in range(1, top + 2):
        out_pen[x - 1] = -1
        out_hash[x - 1] = np.uint64(0)
        if not (allowed[i] >> (x - 1)) & 1:
            continue
        pen = 0
        h = np.uint64(0)
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
                h ^= zobrist[s, y, new_my]
        if not ok or _need(x, mask_c, top) > own_rem[i]:
            continue
        if own_rem[i] > 0:
            h ^= zobrist[s_own, x, mask_c]
        out_pen[x - 1] = pen
        out_hash[x - 1] = h


@numba.njit(cache=True, nogil=True)
def beam_kernel_packed(own_slot, own_rem, prev_slot, prev_rem, close_slot, allowed, top, slots, width, zobrist, cutoff, control, bits, cache_bits):
    """beam_kernel's search (same children, same order, same kept states) with the
    write-up's two tunings. Cells packed: a state's values go `bits` bits a cell into
    a word of per = 64 // bits cells that the state carries (one word copied per child,
    not the grid); a full word goes to the history with the index of the state's
    ancestor at the previous full word: 12 bytes per `per` cells instead of beam_kernel's
    int32 parent and int8 value per cell. The cache (cache_bits > 0): a direct-mapped
    lookaside table of 2**cache_bits entries maps a state's neighbour situation
    (_situation) at a step to all its children's penalties and hash changes; an entry is
    valid for the step that wrote it.

    Returns (words, parents, final_penalty, final_count, steps_done, lookups, hits):
    words[w, t] the w-th full word of state t of generation w (cell i of the order at
    bits (i % per) * bits of word i // per, stored as value - 1), parents[w, t] its
    state in generation w - 1.
    """
    steps = own_slot.shape[0]
    per = 64 // bits
    words = (steps + per - 1) // per
    history_word = np.zeros((words, width), dtype=np.uint64)
    history_parent = np.zeros((words, width), dtype=np.int32)  # zeros: pages touched only when used
    current = np.zeros(width, dtype=np.uint64)
    anchor = np.full(width, -1, dtype=np.int32)
    new_current = np.zeros(width, dtype=np.uint64)
    new_anchor = np.full(width, -1, dtype=np.int32)
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
    entries = 1 << cache_bits if cache_bits > 0 else 1
    cache_key = np.zeros(entries, dtype=np.int64)
    cache_step = np.full(entries, -1, dtype=np.int32)
    cache_pen = np.zeros((entries, choices), dtype=np.int16)
    cache_hash = np.zeros((entries, choices), dtype=np.uint64)
    child_pen = np.zeros(choices, dtype=np.int16)
    child_hash = np.zeros(choices, dtype=np.uint64)
    golden = np.uint64(0x9E3779B97F4A7C15)
    shift = np.uint64(64 - cache_bits) if cache_bits > 0 else np.uint64(63)
    count = 1
    nodes = 0
    lookups = 0
    hits = 0
    hash_bits = np.uint64((1 << 40) - 1)
    for i in range(steps):
        if should_stop(control):
            return history_word, history_parent, penalty, 0, i, lookups, hits
        m = 0
        for p in range(count):
            if cache_bits > 0:
                key = _situation(values, masks, p, prev_slot, i)
                t = (np.uint64(key) * golden) >> shift
                lookups += 1
                if cache_step[t] == i and cache_key[t] == key:
                    hits += 1
                else:
                    _children(values, masks, p, i, prev_slot, prev_rem, own_slot, own_rem, allowed, top, zobrist, child_pen, child_hash)
                    cache_step[t] = i
                    cache_key[t] = key
                    for x in range(choices):
                        cache_pen[t, x] = child_pen[x]
                        cache_hash[t, x] = child_hash[x]
                for x in range(choices):
                    d = cache_pen[t, x]
                    if d < 0 or penalty[p] + d > cutoff:
                        continue
                    h = hashes[p] ^ cache_hash[t, x]
                    cand_key[m] = (np.int64(penalty[p] + d) << 40) | np.int64(h & hash_bits)
                    cand_parent[m] = p
                    cand_value[m] = x + 1
                    m += 1
            else:
                _children(values, masks, p, i, prev_slot, prev_rem, own_slot, own_rem, allowed, top, zobrist, child_pen, child_hash)
                for x in range(choices):
                    d = child_pen[x]
                    if d < 0 or penalty[p] + d > cutoff:
                        continue
                    h = hashes[p] ^ child_hash[x]
                    cand_key[m] = (np.int64(penalty[p] + d) << 40) | np.int64(h & hash_bits)
                    cand_parent[m] = p
                    cand_value[m] = x + 1
                    m += 1
        nodes += m
        control[NODES] = nodes
        if m == 0:
            return history_word, history_parent, penalty, 0, i, lookups, hits
        order = np.argsort(cand_key[:m])
        word = i // per
        field = np.uint64((i % per) * bits)
        full = i % per == per - 1 or i == steps - 1
        kept = 0
        last_key = np.int64(-1)
        s_own = own_slot[i]
        for t in range(m):
            if kept >= width:
                break
            c = order[t]
            key = cand_key[c]
            if key == last_key:
                continue
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
            low = current[p] if field > 0 else np.uint64(0)  # a fresh word starts empty
            packed = low | (np.uint64(x - 1) << field)
            if full:
                history_word[word, kept] = packed
                history_parent[word, kept] = anchor[p]
                new_anchor[kept] = kept
            else:
                new_current[kept] = packed
                new_anchor[kept] = anchor[p]
            new_penalty[kept] = np.int32(key >> 40)
            new_hashes[kept] = np.uint64(key & hash_bits)
            kept += 1
        count = kept
        current, new_current = new_current, current
        anchor, new_anchor = new_anchor, anchor
        values, new_values = new_values, values
        masks, new_masks = new_masks, masks
        penalty, new_penalty = new_penalty, penalty
        hashes, new_hashes = new_hashes, hashes
        control[BEST] = penalty[0]
    return history_word, history_parent, penalty, count, steps, lookups, hits
