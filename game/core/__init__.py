"""The rules layer: pure, deterministic, no pygame and no I/O."""
