"""The hexagon puzzle as CNF, and the SAT machinery every SAT-based method shares.

In the order data flows:
- `encoding.py`: the clauses (values, the rule, penalty-edge variables, ring
  restrictions); like PySAT's encoders it never touches a solver.
- `solver.py`: one incremental CaDiCaL with a movable bound on the penalty count.
- `maxsat.py`: lower bounds on the penalty count by core-guided MaxSAT (RC2).
"""
