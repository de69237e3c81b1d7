"""Shared by all puzzles; knows no puzzle (DESIGN.md)."""
