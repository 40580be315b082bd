"""`fivefoot rulesets`: the bundled rulesets, or every key a ruleset file may hold."""
from __future__ import annotations

from .common import add_json_flag, emit_json


def register(subparsers) -> None:
    p = subparsers.add_parser("rulesets", help="list the bundled rulesets")
    p.add_argument("--keys", action="store_true", help="list every key a ruleset file may hold")
    p.add_argument("--markdown", action="store_true", help="with --keys: print the key table as Markdown")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..core.ruleset import SCHEMA
    from ..core.ruleset.schema import describe
    from ..io.rulesets import bundled_ruleset_ids, load_ruleset
    if args.keys:
        rows = [{"key": k, "type": f.kind, "allowed": f.allowed(), "doc": f.doc} for k, f in describe(SCHEMA)]
        if args.json:
            emit_json(rows)
        elif args.markdown:
            print(keys_markdown(rows))
        else:
            for row in rows:
                print(f"{row['key']:<48} {row['allowed']:<40} {row['doc']}")
        return 0
    rulesets = [load_ruleset(i) for i in bundled_ruleset_ids()]
    if args.json:
        emit_json([{"id": r.id, "name": r.name, "source": r.data["source"], "summary": r.data["summary"],
                    "diagonal": r.diagonal, "engagement_ft": r.section("engagement")["zone_ft"]} for r in rulesets])
        return 0
    for r in rulesets:
        print(f"{r.id:<12} {r.name}")
        print(f"{'':<12} {r.data['summary']}")
        print(f"{'':<12} diagonals {r.diagonal}, engaged within {r.section('engagement')['zone_ft']} ft, "
              f"source seeds/{r.data['source']}")
    return 0


def keys_markdown(rows) -> str:
    lines = ["| key | allowed | meaning |", "| --- | --- | --- |"]
    for row in rows:
        lines.append(f"| `{row['key']}` | {row['allowed']} | {row['doc']} |")
    return "\n".join(lines)
