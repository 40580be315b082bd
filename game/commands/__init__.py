"""One module per CLI subcommand. Each exposes `register(subparsers)`; the command's name is the
module's with dashes for underscores (check_map: `fivefoot check-map`)."""

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
    "odds_map",
    "legal",
    "compare",
    "play",
    "lessons",
    "picture",
    "simulate",
    "ladder",
    "exam",
)


def command_module(name: str) -> str | None:
    """The module of the command called `name`, or None if there is no such command."""
    module = name.replace("-", "_")
    return module if module in COMMAND_MODULES and "_" not in name else None
