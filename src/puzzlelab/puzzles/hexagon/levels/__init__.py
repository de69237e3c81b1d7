"""Level questions: place the values b+1..k on a level-b grid at the least level-k
penalty (seed write-up, "Level by Level" and "Algorithms").

In the order data flows:
- `question.py`: the question and the check of an answer.
- `dlx.py`: dancing links (Knuth's algorithms C and M, from miniexact).
- `ilp.py`: integer programming on HiGHS.
- `solvers.py`: the solvers side by side behind one `solve_level`.
- `pipeline.py`: the `levels` method: beam for the 1s and 2s, then the questions above,
  then `completion/`.
"""
