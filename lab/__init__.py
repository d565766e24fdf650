"""Developer tools, left out of the wheel the page downloads: the arena, the benchmarks and the fuzzer."""
