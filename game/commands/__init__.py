"""One module per CLI subcommand. Each exposes `register(subparsers)`."""

# Order here is the order `fivefoot --help` lists them in.
COMMAND_MODULES = (
    "rulesets",
    "check",
    "reach",
    "path",
    "threats",
    "check_map",
    "run",
    "explain",
    "legal",
    "compare",
    "play",
    "simulate",
    "ladder",
)
