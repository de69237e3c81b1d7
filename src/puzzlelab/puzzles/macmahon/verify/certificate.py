"""The check of a count certificate (`{"kind": "count", ...}`, built by the enumerator,
the plain-Python backtracking and CP-SAT's `--all`): what it claims, how each claim is
checked, and a verdict that says INVALID for a false claim and UNCHECKED for a claim the
checker could not check (never "valid" for either).

A certificate claims
- `total`: the number of solutions with the board held fixed (`complete: true`), or a
  lower bound on it (`complete: false`: the search stopped early);
- `examples`: different solutions;
- `elements`: symmetries of the instance (a board move with a colour permutation),
  together a group G;
- `fixed_points`: for each element g, how many solutions g maps onto themselves;
- `symmetric`: one solution of each class (G-orbit) that a non-identity element fixes,
  and with `symmetric_complete` that every such class is listed;
- `groups`: subgroups H of G (`members`), each with its number of classes (H-orbits)
  and the histogram of their sizes (`orbit_sizes`).

How each is checked:
- examples and listed classes are valid solutions (`check_placement`), all different;
- every element maps the instance onto itself, no two act alike, the identity is there,
  and G and every H are closed under composition;
- the claims agree with each other: each listed class has a non-trivial stabiliser and
  its orbit is new; the fixed points counted in the listed classes are the claimed ones
  (or at most them, when the list is not claimed complete); orbit sizes divide |H| and
  add up to the total and to the class count; Burnside's lemma, classes x |H| = the sum
  of the fixed points over H;
- the total is recounted by the checker's own search (`verify_recount`) where that is
  small enough, else compared with a published count of exactly this instance
  (`reference.py`; a rectangle turned a quarter turn has the same count); else it is not
  checked;
- the fixed points of every non-identity element are recounted by the same search kept
  to the solutions the element fixes (a small search: such a solution is settled by its
  pieces on one cell of each cycle of the element, and a piece without a partner in the
  multiset is ruled out at once). Where they equal what the listed classes give, the
  list is complete, so the H-orbits smaller than |H| are all among the listed classes:
  the classes and orbit sizes of every H are then recomputed, not just compared.

A partial count claims only "at least total": checked when it lists that many different
valid examples, or the checker's recount or a published count is at least that. Its
class figures describe the part searched and are neither checked nor reported.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Any

from puzzlelab.core.result import Verdict
from puzzlelab.puzzles.macmahon.model import Instance, parse_instance
from puzzlelab.puzzles.macmahon.reference import PUBLISHED_COUNTS
from puzzlelab.puzzles.macmahon.verify.claims import CountClaim, GroupClaim, Malformed, number, parse_certificate
from puzzlelab.puzzles.macmahon.verify.recount import WORK_LIMIT, recount
from puzzlelab.puzzles.macmahon.verify.rules import Action, apply_action, cell_geometry, check_placement, element_action, preserves_instance

__all__ = ["verify_count", "published_count"]

GROUP_WORK = 20_000_000  # side positions composed or compared to check the group and the classes
FIXED_POINT_WORK = 4 * WORK_LIMIT  # the fixed-point recounts of all the elements together


class _Rejected(Exception):
    """A claim of the certificate is false: the verdict is INVALID."""


def published_count(inst: Instance) -> tuple[int, str] | None:
    """(count, source) published for exactly this instance, or for the same rectangle
    turned a quarter turn (the turn maps the solutions of one onto the other)."""
    for text, entry in PUBLISHED_COUNTS.items():
        known = parse_instance(text)
        turned = known
        rectangle = re.fullmatch(r"(\d+)x(\d+)", known.board_name)
        if rectangle:
            turned = replace(known, board_name=f"{rectangle.group(2)}x{rectangle.group(1)}")
        if inst in (known, turned):
            return entry
    return None


def verify_count(inst: Instance, cert: dict[str, Any]) -> Verdict:
    """The verdict on a count certificate (see the module docstring)."""
    try:
        claim = parse_certificate(cert)
    except Malformed as exc:
        return Verdict(False, None, f"count certificate: {exc}")
    return _Check(inst, claim).run()


@dataclass
class _Listed:
    """The solutions in the orbits of the listed symmetric classes, and how many of them
    each element fixes."""

    union: set[tuple[int, ...]]
    fixed: dict[str, int]


class _Check:
    def __init__(self, inst: Instance, claim: CountClaim):
        self.inst, self.claim = inst, claim
        self.checked: list[str] = []
        self.unchecked: list[str] = []
        self.figures: dict[str, Any] = {}
        self.identity = ""
        _, polys = cell_geometry(inst)
        self.cells, self.sides = len(polys), len(polys[0])
        self.positions = self.cells * self.sides

    def run(self) -> Verdict:
        claim = self.claim
        try:
            if claim.total > math.factorial(self.cells) * self.sides**self.cells:
                raise _Rejected(f"total: {number(claim.total)} is more than the ways to place {self.cells} pieces")
            examples = self.solutions(claim.examples, "example")
            actions = self.actions()
            reps = self.solutions(claim.symmetric, "symmetric class")
            if not claim.complete:
                return self.partial(len(examples))
            return self.complete(len(examples), actions, reps)
        except _Rejected as exc:
            value = claim.total if claim.total.bit_length() <= 200 else None  # no unprintable figure
            return Verdict(False, value, f"count certificate: {exc}")

    def verdict(self, what: str) -> Verdict:
        done = "; ".join(self.checked)
        if self.unchecked:
            missing = "; ".join(self.unchecked)
            return Verdict(False, self.claim.total, f"{what}: checked {done}; NOT checked: {missing}", unchecked=missing)
        return Verdict(True, self.claim.total, f"{what} checked: {done}", self.figures)

    # ------------------------------------------------------------ what is listed
    def solutions(self, grids: tuple[Any, ...], label: str) -> list[tuple[int, ...]]:
        """Side colours of every listed grid: each a valid solution, all different."""
        seen: dict[tuple[int, ...], int] = {}
        for n, grid in enumerate(grids):
            colours, why = check_placement(self.inst, grid)
            if colours is None:
                raise _Rejected(f"{label} {n + 1}: {why}")
            if colours in seen:
                raise _Rejected(f"{label} {n + 1} is the same solution as {label} {seen[colours] + 1}")
            seen[colours] = n
        return list(seen)

    def actions(self) -> dict[str, Action] | None:
        """The listed elements: symmetries of the instance, acting differently, with the
        identity, closed under composition. None when there are too many to check."""
        names = self.claim.elements
        if (len(names) ** 2 + sum(len(g.members) ** 2 for g in self.claim.groups)) * self.positions > GROUP_WORK:
            self.unchecked.append(
                f"the {len(names):,} symmetry elements, the {len(self.claim.groups):,} groups and everything resting on them "
                "(too many to check here)"
            )
            return None
        actions: dict[str, Action] = {}
        seen: dict[tuple, str] = {}
        for name in names:
            try:
                action = element_action(self.inst, name)
            except ValueError as exc:
                raise _Rejected(f"elements: {exc}") from None
            if not preserves_instance(self.inst, action):
                raise _Rejected(f"elements: {name} does not map the instance onto itself")
            if action[:2] in seen:
                raise _Rejected(f"elements: {name} and {seen[action[:2]]} are the same symmetry")
            seen[action[:2]] = name
            actions[name] = action
        self.identity = next((n for n, a in actions.items() if _is_identity(a)), None)
        if self.identity is None:
            raise _Rejected("elements: the identity is missing")
        _closed(actions, names, "elements")
        for group in self.claim.groups:
            if self.identity not in group.members:
                raise _Rejected(f"group {group.name}: the identity is missing")
            _closed(actions, group.members, f"group {group.name}")
        return actions

    def listed(self, actions: dict[str, Action], reps: list[tuple[int, ...]]) -> _Listed:
        """The orbits of the listed symmetric classes: each new, each with a non-trivial
        stabiliser; and the solutions in them that each element fixes."""
        union: set[tuple[int, ...]] = set()
        for n, colours in enumerate(reps):
            orbit = {apply_action(a, colours) for a in actions.values()}
            if orbit & union:
                raise _Rejected(f"symmetric class {n + 1} is in the orbit of an earlier class")
            if len(orbit) == len(actions):
                raise _Rejected(f"symmetric class {n + 1} has no non-trivial symmetry")
            union |= orbit
        fixed = {name: sum(1 for y in union if apply_action(a, y) == y) for name, a in actions.items()}
        return _Listed(union, fixed)

    # ------------------------------------------------------------ a stopped search
    def partial(self, examples: int) -> Verdict:
        """A lower bound: checked by the examples, a published count or a recount."""
        total, what = self.claim.total, "partial count (a lower bound)"
        self.checked.append("examples valid and different")
        if total <= examples:
            self.checked.append(f"at least {number(total)} solutions: {examples} different ones are listed")
            return self.verdict(what)
        bound = self.independent_total()
        if bound is None:
            self.unchecked.append(
                f"the lower bound {number(total)} (only {examples} different solution(s) listed, no published count "
                "for this instance, and the checker's own search is too large for it)"
            )
        elif total > bound[0]:
            raise _Rejected(f"total: at least {number(total)} solutions claimed, but {bound[1]} {number(bound[0])}")
        else:
            self.checked.append(f"at least {number(total)} solutions: {bound[1]} {number(bound[0])}")
        self.checked.append("the class figures of a stopped search describe the part searched only: not checked, not reported")
        return self.verdict(what)

    def independent_total(self) -> tuple[int, str] | None:
        """(the number of solutions, how it is known) by a published count or the
        checker's own search; None when neither is available."""
        published = published_count(self.inst)
        if published is not None:
            return published[0], f"the published count ({published[1]}) is"
        found = recount(self.inst).value
        if found is None:
            return None
        return found, "the checker's own search counts"

    # ------------------------------------------------------------ a finished search
    def complete(self, examples: int, actions: dict[str, Action] | None, reps: list[tuple[int, ...]]) -> Verdict:
        claim = self.claim
        if claim.total > 0 and examples == 0:
            raise _Rejected("a positive count needs an example solution")
        if examples > claim.total:
            raise _Rejected(f"{examples} different examples but a total of {number(claim.total)}")
        self.checked.append("examples valid and different")
        listed = None
        if actions is not None and len(reps) * len(actions) ** 2 * (1 + len(claim.groups)) * self.positions > GROUP_WORK:
            self.unchecked.append("the listed symmetric classes and everything resting on them (too many to check here)")
            actions = None
        if actions is not None:
            listed = self.listed(actions, reps)
            self.consistent(actions, listed)
        known = self.independent_total()
        if known is None:
            self.unchecked.append("the total (no published count for this instance, and the checker's own search is too large for it)")
        elif known[0] != claim.total:
            raise _Rejected(f"total: the certificate says {number(claim.total)}, but {known[1]} {number(known[0])}")
        else:
            self.checked.append(f"the total: {known[1]} {number(known[0])}")
        if actions is not None and listed is not None:
            fixed = self.fixed_points(actions, listed)
            if known is None:
                if claim.groups:
                    self.unchecked.append("the classes and orbit sizes of the groups (they rest on the total)")
            else:
                for group in claim.groups:
                    self.group(group, actions, listed, fixed)
        return self.verdict("count certificate")

    def consistent(self, actions: dict[str, Action], listed: _Listed) -> None:
        """The claims agree with each other, before anything is recounted."""
        claim = self.claim
        total = claim.total
        if len(listed.union) > total:
            raise _Rejected(f"the listed symmetric classes hold {len(listed.union):,} solutions, more than the total {number(total)}")
        for name, value in claim.fixed_points.items():
            if name == self.identity and value != total:
                raise _Rejected(f"fixed_points.{name}: the identity fixes every solution, {number(total)}, not {number(value)}")
            if value > total:
                raise _Rejected(f"fixed_points.{name}: {number(value)} is more than the total {number(total)}")
            if name != self.identity and claim.symmetric_complete and value != listed.fixed[name]:
                raise _Rejected(f"fixed_points.{name}: the certificate says {number(value)}, its symmetric classes give {listed.fixed[name]:,}")
            if value < listed.fixed[name]:
                raise _Rejected(f"fixed_points.{name}: {number(value)}, fewer than the {listed.fixed[name]:,} in the listed symmetric classes")
        for group in claim.groups:
            order = len(group.members)
            sizes = group.orbit_sizes
            wrong = [s for s, v in sizes.items() if v and order % s]  # a size with no orbits claims nothing
            if wrong:
                raise _Rejected(f"group {group.name}: orbit size {wrong[0]} does not divide the group order {order}")
            solutions, classes = sum(s * v for s, v in sizes.items()), sum(sizes.values())
            if solutions != total or classes != group.classes:
                raise _Rejected(
                    f"group {group.name}: the orbit sizes make {number(solutions)} solutions in {number(classes)} classes, "
                    f"not {number(total)} in {number(group.classes)}"
                )
            if all(m in claim.fixed_points for m in group.members):
                burnside = sum(claim.fixed_points[m] for m in group.members)
                if burnside != group.classes * order:
                    raise _Rejected(
                        f"group {group.name}: {number(group.classes)} classes of order {order} contradict Burnside's lemma "
                        f"(the fixed points add up to {number(burnside)})"
                    )

    def fixed_points(self, actions: dict[str, Action], listed: _Listed) -> dict[str, int | None]:
        """Every non-identity element's fixed points, recounted (None where the search is
        too large), compared with the certificate's figures and its listed classes."""
        claim = self.claim
        fixed: dict[str, int | None] = {self.identity: claim.total}
        budget, missing = FIXED_POINT_WORK, []
        for name, action in actions.items():
            if name == self.identity:
                continue
            found = recount(self.inst, action, work_limit=max(0, min(WORK_LIMIT, budget)))
            budget -= found.work
            fixed[name] = found.value
            if found.value is None:
                missing.append(name)
                continue
            if name in claim.fixed_points and claim.fixed_points[name] != found.value:
                raise _Rejected(f"fixed_points.{name}: the certificate says {number(claim.fixed_points[name])}, the checker's own search counts {found.value:,}")
            if claim.symmetric_complete and listed.fixed[name] != found.value:
                raise _Rejected(
                    f"symmetric: the listed classes hold {listed.fixed[name]:,} solutions that {name} fixes, the checker's own "
                    f"search counts {found.value:,}: the list claimed complete is not"
                )
        if missing:
            more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
            self.unchecked.append(f"the fixed points of {', '.join(missing[:4])}{more} (the checker's own search is too large for them)")
        elif len(actions) > 1:
            self.checked.append(f"the fixed points of every other element ({len(actions) - 1}) recounted")
        return fixed

    def group(self, group: GroupClaim, actions: dict[str, Action], listed: _Listed, fixed: dict[str, int | None]) -> None:
        """A group's classes by Burnside's lemma on the recounted fixed points, and its
        orbit sizes recomputed, both compared with the claims."""
        order = len(group.members)
        values = [fixed[m] for m in group.members]
        if any(v is None for v in values):
            self.unchecked.append(f"the classes and orbit sizes of group {group.name} (they rest on fixed points not recounted)")
            return
        burnside = sum(v for v in values if v is not None)
        if burnside % order or burnside // order != group.classes:
            raise _Rejected(
                f"group {group.name}: {number(group.classes)} classes claimed, Burnside's lemma on the recounted "
                f"fixed points gives {number(burnside)} / {order}"
            )
        sizes = self.orbit_sizes(group, actions, listed, fixed)
        if sizes is None:
            self.unchecked.append(f"the orbit sizes of group {group.name} (its symmetric classes are not all listed)")
            return
        claimed = {s: v for s, v in group.orbit_sizes.items() if v}
        if sizes != claimed:
            raise _Rejected(f"group {group.name}: orbit sizes {_sizes(claimed)} claimed, the solutions make {_sizes(sizes)}")
        self.figures[group.name] = group.classes
        self.checked.append(f"group {group.name}: {number(group.classes)} classes, orbit sizes {_sizes(sizes)}")

    def orbit_sizes(self, group: GroupClaim, actions: dict[str, Action], listed: _Listed, fixed: dict[str, int | None]) -> dict[int, int] | None:
        """{orbit size: classes} of a group: the solutions some non-identity member fixes
        are all in the listed classes when those hold as many as were recounted; every
        other solution lies in an orbit of size |H|. None when the list falls short."""
        order, total = len(group.members), self.claim.total
        others = [m for m in group.members if m != self.identity]
        if any(listed.fixed[m] != fixed[m] for m in others):
            return None
        members = [actions[m] for m in group.members]
        small: dict[int, int] = {}
        for y in listed.union:
            stabiliser = sum(1 for a in members if apply_action(a, y) == y)
            if stabiliser > 1:
                small[order // stabiliser] = small.get(order // stabiliser, 0) + 1
        free = total - sum(small.values())
        if free % order or any(n % s for s, n in small.items()):
            raise _Rejected(f"group {group.name}: {number(total)} solutions do not split into orbits of its {order} elements")
        sizes = {s: n // s for s, n in small.items()}
        if free:
            sizes[order] = free // order
        return sizes


def _sizes(sizes: dict[int, int]) -> str:
    return "{" + ", ".join(f"{s}: {number(v)}" for s, v in sorted(sizes.items())) + "}"


def _is_identity(action: Action) -> bool:
    perm, cmap, _ = action
    return perm == tuple(range(len(perm))) and cmap == tuple(range(len(cmap)))


def _closed(actions: dict[str, Action], names: tuple[str, ...], where: str) -> None:
    """Every composition of two listed elements is listed (a finite set with the
    identity that is closed under composition is a group)."""
    keys = {actions[n][:2] for n in names}
    for a in names:
        pa, ca, _ = actions[a]
        for b in names:
            pb, cb, _ = actions[b]
            if (tuple(pa[p] for p in pb), tuple(ca[c] for c in cb)) not in keys:
                raise _Rejected(f"{where}: {a} after {b} is not in the group")
