"""Board symmetries that fix a start: `bfs` then stores one board of each orbit.

The move rule only looks at edge-neighbours, so every symmetry of the W x H rectangle
(the two mirrors and the half turn; on a square board the quarter turns and the two
transposes as well) maps moves to moves. When a symmetry s fixes the start, a board b
and s(b) lie at the same distance from it. The level array then needs the level of one
board per orbit of the start's stabilizer: its canonical member, the one with the
smallest mask (the smallest colex rank, core/rank.py). Expanding only canonical boards
halves the children generated for a start with one mirror (A, M, T, ...: 19 of the 37
starts of font5x7 have at least one symmetry) and quarters them for H, O, X and 0.

A symmetry is a cell permutation `perm` (perm[cell] = image cell, cells y * W + x); a
stabilizer is the int64 array of its non-identity permutations, shape (t, 64), t = 0
when the start has no symmetry.
"""

from __future__ import annotations

import numba
import numpy as np

from puzzlelab.core.bits import clz, ctz
from puzzlelab.core.rank import BINOMIAL, rank
from puzzlelab.puzzles.coins.kernels import G_FULL, cell_neighbours, coin_rank_sums, moved_rank, support_masks

__all__ = [
    "SYMMETRY_NAMES",
    "board_symmetries",
    "stabilizer",
    "transform",
    "canonical",
    "orbit_size",
    "frame_workspace_njit",
    "canonical_move_ranks",
]

ONE = np.uint64(1)
ZERO = np.uint64(0)

# (name, image of (x, y) on a board of width W and height H)
_MAPS = (
    ("mirror-x", lambda x, y, w, h: (w - 1 - x, y)),
    ("mirror-y", lambda x, y, w, h: (x, h - 1 - y)),
    ("half-turn", lambda x, y, w, h: (w - 1 - x, h - 1 - y)),
    ("transpose", lambda x, y, w, h: (y, x)),
    ("anti-transpose", lambda x, y, w, h: (w - 1 - y, h - 1 - x)),
    ("quarter-turn", lambda x, y, w, h: (w - 1 - y, x)),
    ("three-quarter-turn", lambda x, y, w, h: (y, h - 1 - x)),
)
SYMMETRY_NAMES = tuple(name for name, _ in _MAPS)


def board_symmetries(width: int, height: int) -> list[tuple[str, np.ndarray]]:
    """The non-identity symmetries of the board as (name, perm): three on a rectangle,
    seven on a square."""
    out = []
    for name, image in _MAPS[: 7 if width == height else 3]:
        perm = np.arange(64, dtype=np.int64)
        for y in range(height):
            for x in range(width):
                ix, iy = image(x, y, width, height)
                perm[y * width + x] = iy * width + ix
        out.append((name, perm))
    return out


def stabilizer(board: int, width: int, height: int) -> tuple[list[str], np.ndarray]:
    """The symmetries that map `board` onto itself: (names, perms of shape (t, 64))."""
    symmetries = board_symmetries(width, height)
    every = np.array([perm for _, perm in symmetries], dtype=np.int64)
    kept = [f for f in range(len(symmetries)) if int(transform(np.uint64(board), every, f)) == board]
    return [symmetries[f][0] for f in kept], every[kept].reshape(len(kept), 64)


@numba.njit(cache=True, nogil=True, inline="always")
def transform(mask, perms, f):
    """The image of a board under the symmetry perms[f] (indexed, not sliced: a slice
    costs a reference count update in the kernels' inner loops)."""
    mask = np.uint64(mask)
    out = np.uint64(0)
    while mask:
        out |= ONE << np.uint64(perms[f, ctz(mask)])
        mask &= mask - ONE
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def canonical(mask, perms):
    """The smallest mask among `mask` and its images under `perms` (the orbit's
    stored member)."""
    best = np.uint64(mask)
    for f in range(perms.shape[0]):
        image = transform(mask, perms, f)
        if image < best:
            best = image
    return best


@numba.njit(cache=True, nogil=True, inline="always")
def orbit_size(mask, perms):
    """How many distinct boards the orbit of `mask` holds: the stabilizer's order over
    the order of the subgroup fixing `mask` (orbit-stabilizer theorem)."""
    fixed = 1
    for f in range(perms.shape[0]):
        if transform(mask, perms, f) == np.uint64(mask):
            fixed += 1
    return (perms.shape[0] + 1) // fixed


@numba.njit(cache=True, nogil=True)
def frame_workspace_njit(perms):
    """The arrays canonical_move_ranks works in, for a stabilizer `perms`: the frames'
    permutations (identity first), coin sums, cell -> coin index, boards and ranks, the
    safe cells (safe[f, h]: the cells x with x < h and perm_f(x) < h) and the images of
    bytes (images[f, j, b]: byte b of a mask's byte j, mapped by perm_f; image_of)."""
    frames = perms.shape[0] + 1
    perms_all = np.empty((frames, 64), dtype=np.int64)
    for cell in range(64):
        perms_all[0, cell] = cell
    perms_all[1:] = perms
    safe = np.zeros((frames, 64), dtype=np.uint64)
    for f in range(frames):
        for h in range(64):
            for cell in range(h):
                if perms_all[f, cell] < h:
                    safe[f, h] |= ONE << np.uint64(cell)
    images = np.zeros((frames, 8, 256), dtype=np.uint64)
    for f in range(frames):
        for j in range(8):
            for b in range(256):
                images[f, j, b] = transform(np.uint64(b) << np.uint64(8 * j), perms_all, f)
    return (
        perms_all,
        np.empty((3 * frames, 66), dtype=np.int64),
        np.zeros((frames, 64), dtype=np.int64),
        np.empty(frames, dtype=np.uint64),
        np.empty(frames, dtype=np.int64),
        safe,
        images,
    )


@numba.njit(cache=True, nogil=True, inline="always")
def image_of(mask, images, f):
    """transform() by table: one read a byte of the mask instead of one a coin."""
    mask = np.uint64(mask)
    out = ZERO
    j = 0
    while mask:
        out |= images[f, j, mask & np.uint64(0xFF)]
        mask >>= np.uint64(8)
        j += 1
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def orbit_size_of(mask, images, frames):
    """orbit_size() by the byte tables of frame_workspace_njit (`frames` counts the identity)."""
    fixed = 1
    for f in range(1, frames):
        if image_of(mask, images, f) == np.uint64(mask):
            fixed += 1
    return frames // fixed


@numba.njit(cache=True, nogil=True, inline="always")
def _safe_cells(board, image, safe, f):
    """Cells a move of the canonical `board` may leave and land on with the child still
    below its image in frame f: board < image is decided at their top differing bit h,
    and a move whose two cells and their two images all lie below h leaves that bit,
    hence the order, as it was. None when the board is its own image."""
    differ = np.uint64(board) ^ np.uint64(image)
    if differ == 0:
        return ZERO
    return safe[f, 63 - clz(differ)]


@numba.njit(cache=True, nogil=True, inline="always")
def _see_frame(board, perms_all, f, scratch, index):
    """The board seen in frame f: its image's coin sums into scratch rows 3f..3f+2 and
    its coins' indices into index[f]; returns (image, image's rank, coins)."""
    image = transform(board, perms_all, f)
    coins = coin_rank_sums(image, scratch, 3 * f)
    image_rank = 0
    for i in range(1, coins + 1):
        index[f, scratch[3 * f, i]] = i
        image_rank += BINOMIAL[scratch[3 * f, i], i]
    return image, image_rank, coins


@numba.njit(cache=True, nogil=True, inline="always")
def _plain_moves(board, board_rank, i, base, spots, scratch, out_ranks, out_masks, n):
    """Children of `board` moving its i-th coin to each cell of `spots`, each its own
    orbit's canonical member: ranked incrementally, appended at n; returns the new n."""
    while spots:
        q = np.int64(ctz(spots))
        spots &= spots - ONE
        out_ranks[n] = moved_rank(board, board_rank, i, q, scratch, 0)
        out_masks[n] = base | (ONE << np.uint64(q))
        n += 1
    return n


@numba.njit(cache=True, nogil=True, inline="always")
def _mirror_move_ranks(board, board_rank, geo, perms_all, scratch, safe, images, out_ranks, out_masks):
    """canonical_move_ranks for a stabilizer of one symmetry (15 of the 19 symmetric
    starts of font5x7): the parent's image is made once, a child's image is the
    parent's with two cells toggled; a child smaller than its image (most: the parent
    is canonical) is ranked incrementally, the others from scratch (core/rank.py), so
    the image's coin sums are never made. A move within the safe cells (_safe_cells) needs
    no image at all."""
    b0 = np.uint64(board)
    coins = coin_rank_sums(b0, scratch, 0)
    b1 = image_of(b0, images, 1)
    fast = _safe_cells(b0, b1, safe, 1)
    ge2, ge3 = support_masks(b0, geo)
    empty = ~b0 & geo[G_FULL]
    n = 0
    for i in range(1, coins + 1):
        c = scratch[0, i]
        cell = ONE << np.uint64(c)
        spots = (ge3 | (ge2 & ~cell_neighbours(cell, geo))) & empty
        base = b0 ^ cell
        if fast & cell:
            easy = spots & fast
            spots &= ~fast
            n = _plain_moves(b0, board_rank, i, base, easy, scratch, out_ranks, out_masks, n)
        image_base = b1 ^ (ONE << np.uint64(perms_all[1, c]))
        while spots:
            q = np.int64(ctz(spots))
            spots &= spots - ONE
            child = base | (ONE << np.uint64(q))
            image = image_base | (ONE << np.uint64(perms_all[1, q]))
            if child <= image:
                out_ranks[n] = moved_rank(b0, board_rank, i, q, scratch, 0)
                out_masks[n] = child
            else:
                out_ranks[n] = rank(image)
                out_masks[n] = image
            n += 1
    return n


@numba.njit(cache=True, nogil=True, inline="always")
def _three_symmetry_move_ranks(board, board_rank, geo, perms_all, scratch, safe, images, out_ranks, out_masks):
    """canonical_move_ranks for a stabilizer of three symmetries (the two mirrors and
    the half turn of a rectangle: font5x9 H, I, X; on a square also the half turn and
    the transposes, or the turns). The parent's three images are made once; a move
    within the safe cells of every frame (_safe_cells: most moves) gives a canonical
    child, ranked incrementally with no image made; any other child's image is its
    parent's with two cells toggled, and a child whose image is smaller is ranked from
    scratch (core/rank.py), so no image's coin sums are ever made. Seeing each frame's
    coin sums for every board, as the general path does, costs about six times a plain
    board's ranks on 5 x 9; this, about twice."""
    b0 = np.uint64(board)
    coins = coin_rank_sums(b0, scratch, 0)
    b1, b2, b3 = image_of(b0, images, 1), image_of(b0, images, 2), image_of(b0, images, 3)
    fast = _safe_cells(b0, b1, safe, 1) & _safe_cells(b0, b2, safe, 2) & _safe_cells(b0, b3, safe, 3)
    ge2, ge3 = support_masks(b0, geo)
    empty = ~b0 & geo[G_FULL]
    n = 0
    for i in range(1, coins + 1):
        c = scratch[0, i]
        cell = ONE << np.uint64(c)
        spots = (ge3 | (ge2 & ~cell_neighbours(cell, geo))) & empty
        base0 = b0 ^ cell
        if fast & cell:
            easy = spots & fast
            spots &= ~fast
            n = _plain_moves(b0, board_rank, i, base0, easy, scratch, out_ranks, out_masks, n)
        base1 = b1 ^ (ONE << np.uint64(perms_all[1, c]))
        base2 = b2 ^ (ONE << np.uint64(perms_all[2, c]))
        base3 = b3 ^ (ONE << np.uint64(perms_all[3, c]))
        while spots:
            q = np.int64(ctz(spots))
            spots &= spots - ONE
            child = base0 | (ONE << np.uint64(q))
            low = min(base1 | (ONE << np.uint64(perms_all[1, q])), base2 | (ONE << np.uint64(perms_all[2, q])))
            low = min(low, base3 | (ONE << np.uint64(perms_all[3, q])))
            if child <= low:
                out_ranks[n] = moved_rank(b0, board_rank, i, q, scratch, 0)
                out_masks[n] = child
            else:
                out_ranks[n] = rank(low)
                out_masks[n] = low
            n += 1
    return n


@numba.njit(cache=True, nogil=True, inline="always")
def canonical_move_ranks(board, board_rank, geo, perms_all, scratch, index, frame_board, frame_rank, safe, images, out_ranks, out_masks):
    """kernels.forward_move_ranks for an array holding one board per orbit: the rank of
    each child's canonical member into out_ranks (and that member's mask into
    out_masks); returns their number.

    The parent is seen in every frame (its image under each symmetry, with that image's
    coin sums). A child's image in frame f is the parent's image with the moved coin's
    two cells toggled (two table reads), the smallest image wins, and its rank is a
    moved_rank in the winning frame: no board is ranked from scratch."""
    if perms_all.shape[0] == 2:
        return _mirror_move_ranks(board, board_rank, geo, perms_all, scratch, safe, images, out_ranks, out_masks)
    if perms_all.shape[0] == 4:
        return _three_symmetry_move_ranks(board, board_rank, geo, perms_all, scratch, safe, images, out_ranks, out_masks)
    frames = perms_all.shape[0]
    coins = 0
    for f in range(frames):
        frame_board[f], frame_rank[f], coins = _see_frame(board, perms_all, f, scratch, index)
    board = np.uint64(board)
    ge2, ge3 = support_masks(board, geo)
    empty = ~board & geo[G_FULL]
    n = 0
    for i in range(1, coins + 1):
        c = scratch[0, i]
        cell = ONE << np.uint64(c)
        spots = (ge3 | (ge2 & ~cell_neighbours(cell, geo))) & empty
        base = board ^ cell
        while spots:
            q = np.int64(ctz(spots))
            spots &= spots - ONE
            best = base | (ONE << np.uint64(q))
            frame = 0
            for f in range(1, frames):
                image = (frame_board[f] ^ (ONE << np.uint64(perms_all[f, c]))) | (ONE << np.uint64(perms_all[f, q]))
                if image < best:
                    best = image
                    frame = f
            out_ranks[n] = moved_rank(
                frame_board[frame], frame_rank[frame], index[frame, perms_all[frame, c]], perms_all[frame, q], scratch, 3 * frame
            )
            out_masks[n] = best
            n += 1
    return n
