"""What the tests share:

- registry.py: the puzzles the contract tests run on (the registry and the template) and
  the instances of each they use;
- rules.py: the rules every puzzle follows on hostile input, as assertions (a refusal
  is one short line, a verdict too, the CLI's output is clean);
- hostile_strategies.py, field_shapes.py, text_strategies.py: hypothesis strategies
  for hostile input, and what the rules need to know of each puzzle's formats;
- toy_puzzle.py: the toy puzzle (the template puzzle with test knobs);
- fuzz_cases.py, fuzz_inputs.py, fuzz_options.py, fuzz_answers.py, fuzz_harness.py:
  the CLI fuzzer's generators, oracles and harness;
- job_waiting.py, ports.py: waiting for a service job, a free port for a server;
- macmahon_helpers.py: the MacMahon test helpers.
"""
