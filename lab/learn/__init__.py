"""Learning a value for the search: training data, training, and the checks of a model (docs/learned-value.md)."""
