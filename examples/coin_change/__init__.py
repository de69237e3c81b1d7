"""coin_change: a whole puzzle in a few small files, the template for a new one.

Coin change asks for the fewest coins of given denominations (each usable any number of
times) that pay a target exactly: 11 with coins 1 5 6 9 takes two (5 + 6). It is small
enough to read in ten minutes and has what a real puzzle of puzzlelab has: an exact
method, a heuristic, a numba kernel under a budget, an independent checker, published
figures, a picture. Copy this folder to start a puzzle of your own.

Use it without touching puzzlelab (`PUZZLELAB_PLUGINS=module:attribute`, read by
`puzzlelab.puzzles`; the attribute defaults to PUZZLE):

    export PYTHONPATH=examples PUZZLELAB_PLUGINS=coin_change:PUZZLE
    puzzlelab coin_change catalog
    puzzlelab coin_change solve small --method search --svg change.svg
    puzzlelab coin_change solve "44 6 9 20" --method greedy     # greedy gets stuck: exit 1
    puzzlelab serve                                              # and it is on the page

The files, in the order data flows (docs/architecture.md, "Layout"; the built-in puzzles under
`src/puzzlelab/puzzles/<puzzle>/` have the same ones):

    model.py      the instance type, parse / format / key, InvalidInstance messages
    reference.py  the published figures (data/known.tsv), read once
    verify.py     the independent checker: imports no solver
    methods.py    METHODS: name, summary, lazy "module:function", options
    dp.py greedy.py search.py   one module per method: run_<name>(instance, *, budget,
                  progress, seed, **options) -> Result
    kernels.py    the numba kernel behind `search`
    render.py     the SVG picture
    puzzle.py     the Puzzle object tying them together; PUZZLE is what gets registered

`tests/test_contract.py` and `tests/test_contract_hostile.py` run this puzzle through the
same contract as the five built-in ones: run them on yours.
"""

from coin_change.puzzle import PUZZLE, CoinChange

__all__ = ["PUZZLE", "CoinChange"]
