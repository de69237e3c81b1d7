"""`python -m puzzlelab.cli`: the same as the `puzzlelab` command."""

from puzzlelab.cli.app import main

main()
