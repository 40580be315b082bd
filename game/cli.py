"""The `fivefoot` command line. Subcommands live in game/commands/, one module each."""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from . import __version__
from .commands import COMMAND_MODULES
from .core.errors import RulesError

EXIT_USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own usage errors: one line, exit 2
        self.exit(EXIT_USER_ERROR, f"fivefoot: error: {message}\n(see `fivefoot --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="fivefoot", description="Tactical grid battles on 5-foot squares.")
    parser.add_argument("--version", action="version", version=f"fivefoot {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        module = importlib.import_module(f".commands.{name}", __package__)
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USER_ERROR
    try:
        return int(args.func(args) or 0)
    except RulesError as err:
        print(f"fivefoot: error: {err}", file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:  # output piped into `head` and the like: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as err:
        name = getattr(err, "filename", None) or ""
        print(f"fivefoot: error: {name}: {err.strerror or err}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
