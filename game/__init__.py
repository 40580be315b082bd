"""fivefoot: a tactical grid battle simulator for old-school tabletop combat rules."""

__version__ = "0.1.0"
