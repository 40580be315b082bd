"""The `fivefoot` command line. Subcommands live in game/commands/, one module each."""
from __future__ import annotations

import os

# fivefoot's numpy work is elementwise (no matrix products): OpenBLAS's threads, one per core,
# started when numpy is first imported, would cost start-up time and never be used.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402 (after the setting above, whatever imports numpy later)
import importlib  # noqa: E402
import sys  # noqa: E402

from . import __version__  # noqa: E402
from .commands import COMMAND_MODULES, command_module  # noqa: E402
from .core.values.errors import RulesError  # noqa: E402
from .core.values.safetext import printable  # noqa: E402

EXIT_USER_ERROR = 2


def _terminal_columns() -> int:
    """The terminal's width as shutil.get_terminal_size() gives it (COLUMNS, else the terminal, else 80)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's help formatter, told the width it would look up itself: argparse builds one for every
    argument added, and its own lookup imports shutil (with bz2, lzma and zlib), ~3 ms of each command."""
    return argparse.HelpFormatter(prog, width=_terminal_columns() - 2)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _formatter)
        super().__init__(*args, **kwargs)

    def error(self, message):  # argparse's own usage errors: one line, exit 2
        self.exit(EXIT_USER_ERROR, f"fivefoot: error: {message}\n(see `fivefoot --help`)\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with `only` the one command module it names (all a run of that
    command parses: the others' modules and argparse's work for them cost start-up time)."""
    parser = _Parser(prog="fivefoot", description="Tactical grid battles on 5-foot squares.")
    parser.add_argument("--version", action="version", version=f"fivefoot {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES if only is None else (only,):
        module = importlib.import_module(f".commands.{name}", __package__)
        module.register(subparsers)
    return parser


class _SafeStream:
    """stdout or stderr as every command writes to it: text from files (a map's title, a file name)
    goes through `printable`, so it can neither drive the terminal (escape sequences, BEL, bidi
    overrides) nor fail to encode (lone surrogates; characters the terminal's encoding lacks are
    replaced). A write's own leading carriage return (a progress bar redrawing its line) is kept."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        safe = "\r" + printable(text[1:]) if text.startswith("\r") else printable(text)
        try:
            self._stream.write(safe)
        except UnicodeEncodeError:
            encoding = getattr(self._stream, "encoding", None) or "ascii"
            self._stream.write(safe.encode(encoding, "replace").decode(encoding, "replace"))
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _SafeStream(out), _SafeStream(err)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # A known command first: only its parser is built (--help, a typo or nothing: all of them).
    parser = build_parser(command_module(argv[0]) if argv else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USER_ERROR
    try:
        result = args.func(args)
        if getattr(result, "opens_window", False):      # `play`: the command checked it; the window opens here
            from .ui.launch import open_window
            return open_window(result)
        return int(result or 0)
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
