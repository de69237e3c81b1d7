"""Lower bounds on the penalty count by core-guided MaxSAT (PySAT's RC2).

Why: a proof's hardest cubes are hard at level 1 itself, where the 1s form a weighted
domination problem, and counting penalties through a cardinality network is what
CDCL does worst. A core-guided solver instead proves the bound from the bottom up:
each unsatisfiable core of "no penalty on these edges" raises the lower bound by one
(OLL, Morgado, Dodaro and Marques-Silva, CP 2014; RC2, Ignatiev, Morgado and
Marques-Silva, JSAT 2019). On n = 9, level 1, cube `10000010001000`, CaDiCaL left
"at most 23" open after 100,000 conflicts; RC2 reached a lower bound of 24 in 35 s.
RC2's oracle is Glucose 4: on that cube it took 5.2 s, against 8.2 s (MapleLCMDistChrono),
15.0 s (Glucose 3) and 70.8 s (CaDiCaL 1.9.5), one run each on shared cores.

The bound RC2 holds after each core is a valid lower bound (unit weights), so a run
stops as soon as it reaches the target: that alone refutes "at most target - 1".
"""

from __future__ import annotations

import threading
from typing import Iterable

from puzzlelab.core.result import Budget
from puzzlelab.puzzles.hexagon.cnf.encoding import HexEncoding

__all__ = ["penalty_lower_bound"]


class _Stop(Exception):
    """Raised inside RC2's loop, between cores: the target is met or the budget is over."""


def penalty_lower_bound(enc: HexEncoding, extra: Iterable[list[int]] = (), *, target: int | None = None, budget: Budget | None = None) -> tuple[int, bool, list[int] | None]:
    """(bound, exact, model): a lower bound on the number of true penalty literals
    (`enc.count_lits`) over the models of `enc.clauses` plus the `extra` clauses.
    `exact` is True when RC2 finished: `bound` is then the minimum and `model` a model
    that attains it. The run stops early once the bound reaches `target` (exact False,
    model None), or when the budget runs out (the bound so far). A formula with no
    model at all gives (a huge bound, True, None): nothing can be within any bound."""
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    budget = budget or Budget()
    wcnf = WCNF()
    for clause in enc.clauses:
        wcnf.append(clause)
    for clause in extra:
        wcnf.append(list(clause))
    for lit in enc.count_lits:
        wcnf.append([-lit], weight=1)

    class BoundedRC2(RC2):
        def process_core(self) -> None:
            super().process_core()
            if (target is not None and self.cost >= target) or budget.expired():
                raise _Stop

    # The budget is checked between cores, and a timer interrupts a long oracle call.
    with BoundedRC2(wcnf, solver="g4", adapt=True, exhaust=True, minz=True, trim=5) as rc2:
        timer = None
        if budget.limited:
            timer = threading.Timer(budget.seconds_left(), rc2.interrupt)
            timer.daemon = True
            timer.start()
        try:
            model = rc2.compute(expect_interrupt=True)
        except _Stop:
            return rc2.cost, False, None
        finally:
            if timer is not None:
                timer.cancel()
        if model is None:
            if rc2.interrupted or budget.expired():
                return rc2.cost, False, None
            return len(enc.count_lits) + 1, True, None  # the hard clauses alone have no model
        return rc2.cost, True, list(model)
