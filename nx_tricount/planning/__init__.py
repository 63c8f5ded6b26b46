"""The plan of a count, every choice made in one place and nothing run
(:mod:`.plan`), with how it is spread over parts, GPUs and workers
(:mod:`.spread`)."""
