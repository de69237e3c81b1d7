"""What the DP driver (dp.py) does with a min table of either form, wide (a hash table:
keys, penalties, values) or compact (rowdp/compact.py), so that the driver reads the
same for both: the arrays a kernel's lookup takes, the table as the next step's input,
its penalties, the fill of the least penalty still to come, and the walk's columns.
"""

from __future__ import annotations

import numpy as np

from puzzlelab.puzzles.hexagon.rowdp.tables import CompactTable, Tables

__all__ = ["guide_arrays", "no_guide", "step_input", "kept_form", "penalties", "fill_futures", "walk_columns"]


def _dummy_wide():
    return np.zeros((1, 1), dtype=np.uint64), np.full(1, -1, dtype=np.int32), np.zeros(1, dtype=np.int64)


def _dummy_compact():
    return np.zeros((1, 1), dtype=np.uint64), np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.uint8), np.zeros(1, dtype=np.uint8)


def guide_arrays(table) -> tuple:
    """The `guide` tuple of kernels.dp_step: (compact, keys, penalties, values, heads,
    starts, futures, xors), the other form's arrays dummies."""
    if isinstance(table, CompactTable):
        return (True, *_dummy_wide(), table.heads, table.starts, table.futures, table.xors, table.block)
    return (False, *table, *_dummy_compact(), 1)


def no_guide() -> tuple:
    return (False, *_dummy_wide(), *_dummy_compact(), 1)


def step_input(table) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(keys, penalties, values) that kernels.dp_step reads the states of a step from:
    a wide table as it is, a compact one decoded (in key order, every entry full)."""
    if not isinstance(table, CompactTable):
        return table
    from puzzlelab.puzzles.hexagon.rowdp.compact import decode_keys

    keys = decode_keys(table.heads, table.starts, table.xors, table.states, table.block)
    return keys, table.pens.astype(np.int32), np.zeros(table.states, dtype=np.int64)


def kept_form(tables: Tables, tk: np.ndarray, tp: np.ndarray, tv: np.ndarray):
    """(what `tables.keep` takes, the next step's input) from a step's hash table: the
    triple itself, or for compact tables the buffer and the sorted full entries (fewer
    bytes to read than the half-empty hash table)."""
    if not tables.compact:
        return (tk, tp, tv), (tk, tp, tv)
    from puzzlelab.puzzles.hexagon.rowdp.compact import dense, encode

    keys, pens = dense(tk, tp)
    return encode(keys, pens), (keys, pens, np.zeros(pens.shape[0], dtype=np.int64))


def penalties(table) -> np.ndarray:
    """The penalties of the states a table holds."""
    if isinstance(table, CompactTable):
        return table.pens
    return table[1][table[1] >= 0]


def fill_futures(setup, tables: Tables) -> None:
    """Each min-pass table's values become the least penalty still to come (kernels.
    fill_future, from the last table back). Compact tables then drop the states with
    none within a byte (FAR): no lookup can use them, and the level's tables, which
    guide the next level, shrink (n = 8 level 2: 3.5 of 7.7 million states). Each
    table is rewritten only after it has served the fill of the one before, so a stop
    leaves tables whose refill gives the same figures (a dropped state reads as a
    state with nothing to come, which is what it was)."""
    from puzzlelab.puzzles.hexagon.rowdp import kernels

    if not tables.compact:
        tables[-1][2][:] = 0
        for i in range(len(tables) - 1, 0, -1):
            kernels.fill_future(*tables[i - 1], *tables[i], i, *setup.args(), False)
        return
    tables[-1].futures[:] = 0
    for i in range(len(tables) - 1, 0, -1):
        kernels.fill_future_compact(_fill_view(tables[i - 1]), _fill_view(tables[i]), i, *setup.args(), False)
        _prune(tables, i)
    _prune(tables, 0)


def _fill_view(table: CompactTable) -> tuple:
    return table.heads, table.starts, table.futures, table.xors, table.states, table.block


def _prune(tables: Tables, index: int) -> None:
    from puzzlelab.puzzles.hexagon.rowdp.compact import FAR, decode_keys, encode

    table = tables[index]
    keep = table.futures < FAR
    if keep.all():
        return
    keys = decode_keys(table.heads, table.starts, table.xors, table.states, table.block)
    tables.replace(index, encode(keys[keep], table.pens[keep], table.futures[keep]))


def walk_columns(tables: Tables) -> tuple[bool, tuple, np.ndarray]:
    """(compact, the seven typed lists kernels.walk_grids takes, each table's block
    size), the tables' arrays in place; the other form's lists hold one dummy each."""
    from numba.typed import List

    columns = [List() for _ in range(7)]
    for table in tables:
        arrays = (table.heads, table.starts, table.futures, table.xors) if tables.compact else table
        for column, array in zip(columns[3:] if tables.compact else columns[:3], arrays):
            column.append(array)
    dummies = _dummy_wide() if tables.compact else _dummy_compact()
    for column, array in zip(columns[:3] if tables.compact else columns[3:], dummies):
        column.append(array)
    blocks = np.array([table.block for table in tables] if tables.compact else [1], dtype=np.int64)
    return tables.compact, tuple(columns), blocks
