"""What the tests share: the toy puzzle (the template puzzle with test knobs), the CLI
fuzzing harness and its inputs, hypothesis strategies for text, job waiting and a free
port for the service tests, and the MacMahon test helpers."""
