"""Bidirectional breadth-first search for one puzzle (`bidir`): optimal, memory bounded.

In the order data flows:
- `hashset.py`: one open-addressing table of boards with a level byte per direction.
- `threads.py`: one level expanded by several threads at once.
- `last_level.py`: the level memory has no room for, probed against the other side.
- `search.py`: the `bidir` method: both searches, the meeting, the move list.
"""
