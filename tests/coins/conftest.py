"""Oracles for the coin tests: the move rule and BFS written plainly over Python sets of
cells, sharing nothing with the kernels."""

from collections import deque

import pytest


def plain_children(board: int, width: int, height: int) -> set[int]:
    """Boards one move after `board`, straight from the rule."""
    cells = width * height
    out = set()
    for p in range(cells):
        if not board >> p & 1:
            continue
        lifted = board & ~(1 << p)
        for q in range(cells):
            if q == p or lifted >> q & 1:
                continue
            x, y = q % width, q // width
            support = sum(
                1
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= x + dx < width and 0 <= y + dy < height and lifted >> ((y + dy) * width + x + dx) & 1
            )
            if support >= 2:
                out.add(lifted | (1 << q))
    return out


def plain_bfs(start: int, width: int, height: int) -> dict[int, int]:
    """Distance of every board reachable from `start`."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        for child in plain_children(board, width, height):
            if child not in dist:
                dist[child] = dist[board] + 1
                queue.append(child)
    return dist


@pytest.fixture(scope="session")
def oracle():
    class Oracle:
        children = staticmethod(plain_children)
        bfs = staticmethod(plain_bfs)

    return Oracle
