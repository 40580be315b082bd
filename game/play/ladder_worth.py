"""What the ladder's win rates are worth in to-hit points, and the mistakes each level made.

To-hit worth (docs/ai.md): with `--edge LEVEL+K`, LEVEL+K (LEVEL with +K to hit on every attack;
d100: +5K) plays LEVEL on the same battles and seeds as every other pair. Those win rates, with
50% at K = 0, are the calibration curve of that ruleset; a pair whose weaker level has one is
worth the K at which the curve reaches its win rate (interpolated in log-odds, the curve made
non-decreasing first), and its interval is the same reading of its Wilson interval's ends (the
calibration's own noise is not in it). A rate below 50% reads as minus the worth of its mirror
(1 - rate); beyond the curve's last point it is reported as "more than" that K.
"""
from __future__ import annotations

import math

from .edge import split_level
from .mistakes import KINDS as MISTAKE_KINDS, SHORT, TURNS, add_up

ALL = "all rulesets"


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def curve_from(points: list[tuple[int, float]]) -> list[tuple[float, float]]:
    """(K, log-odds) from (K, win rate) points and (0, 50%), made non-decreasing in K."""
    out, best = [(0.0, 0.0)], 0.0
    for k, rate in sorted(points):
        best = max(best, _logit(rate))
        out.append((float(k), best))
    return out


def read_worth(curve: list[tuple[float, float]], rate: float) -> tuple[float, bool]:
    """(K, beyond): the to-hit points at which the curve reaches this win rate; beyond=True when
    the rate is past the curve's last point (K is then that point's)."""
    if rate < 0.5:
        k, beyond = read_worth(curve, 1 - rate)
        return -k, beyond
    y = _logit(rate)
    for (k0, y0), (k1, y1) in zip(curve, curve[1:]):
        if y <= y1 + 1e-12:
            if y1 - y0 < 1e-12:
                return k0, False
            return k0 + (k1 - k0) * (y - y0) / (y1 - y0), False
    return curve[-1][0], True


def _worth_cell(curve, tally: dict) -> dict | None:
    if tally["win_rate"] is None or len(curve) < 2:
        return None
    k, beyond = read_worth(curve, tally["win_rate"])
    lo, lo_beyond = read_worth(curve, tally["ci95"][0])
    hi, hi_beyond = read_worth(curve, tally["ci95"][1])
    return {"to_hit": round(k, 2), "ci95": [round(lo, 2), round(hi, 2)], "beyond": beyond,
            "ci95_beyond": [lo_beyond, hi_beyond], "win_rate": tally["win_rate"]}


def to_hit_worth(pairs: list[dict], rulesets) -> dict:
    """{"stronger vs weaker": {ruleset or "all rulesets": worth cell}} for every pair whose weaker level
    has a calibration (LEVEL+K against LEVEL played); {} without edges."""
    calib: dict[str, dict[str, list]] = {}
    for p in pairs:
        base, k = split_level(p["stronger"])
        if k and p["weaker"] == base:
            calib.setdefault(base, {})
            for rid in [ALL, *rulesets]:
                t = p["all"] if rid == ALL else p["rulesets"][rid]
                if t["win_rate"] is not None:
                    calib.setdefault(base, {}).setdefault(rid, []).append((k, t["win_rate"]))
    out = {}
    for p in pairs:
        if p["weaker"] not in calib or split_level(p["stronger"])[1]:
            continue
        cells = {}
        for rid in [ALL, *rulesets]:
            points = calib[p["weaker"]].get(rid)
            t = p["all"] if rid == ALL else p["rulesets"][rid]
            cell = _worth_cell(curve_from(points), t) if points else None
            if cell is not None:
                cells[rid] = cell
        out[f"{p['stronger']} vs {p['weaker']}"] = cells
    return out


def format_worth(report: dict) -> list[str]:
    worth = report.get("worth") or {}
    if not worth:
        return []
    rulesets = [ALL, *report["rulesets"]]

    def cell(c: dict | None) -> str:
        if c is None:
            return "-"
        more = ">" if c["beyond"] else ""
        lo, hi = c["ci95"]
        return f"{more}{c['to_hit']:+.1f} [{lo:+.1f},{'>' if c['ci95_beyond'][1] else ''}{hi:+.1f}]"

    lines = ["", "to-hit worth of each pair (the +K to hit on the weaker level's calibration, LEVEL+K vs LEVEL, "
             "that wins as often; 95% interval):",
             f"{'pair':<18}" + "".join(f" {rid:<20}" for rid in rulesets)]
    for pair, cells in worth.items():
        lines.append(f"{pair:<18}" + "".join(f" {cell(cells.get(rid)):<20}" for rid in rulesets))
    return lines


def mistakes_by_level(records: list[dict]) -> dict:
    """{level: {"battles": n, kind: count, ...}} over the battles each level played (a record's
    `levels` says which level played which side)."""
    per: dict[str, list] = {}
    battles: dict[str, int] = {}
    for r in records:
        for side, lv in (r.get("levels") or {}).items():
            counts = (r.get("mistakes") or {}).get(side)
            if counts is None:
                continue
            per.setdefault(lv, []).append(counts)
            battles[lv] = battles.get(lv, 0) + 1
    return {lv: {"battles": battles[lv], **add_up(per[lv])} for lv in per}


def format_mistakes(report: dict) -> list[str]:
    """Each level's mistakes per 10 battles it played, and per 100 turns its figures ended (a level
    that wins keeps its figures longer and plays more turns: the rate per turn compares how often
    it errs when it has the chance)."""
    mistakes = report.get("mistakes") or {}
    if not mistakes:
        return []
    lines = ["", "mistakes per 10 battles a level played, and per 100 turns its figures ended (parting shots drawn, "
             "blows lost to a move too long to strike after, left alone within reach of two or more foes, friends "
             "hit by its missiles, turns ended with a blow or shot forgone):",
             f"  {'level':<10} {'battles':>7} {'turns':>7} {'per':>5}" + "".join(f" {SHORT[k]:>12}" for k in MISTAKE_KINDS)]
    for lv, counts in mistakes.items():
        n, turns = max(1, counts["battles"]), counts.get(TURNS, 0)
        lines.append(f"  {lv:<10} {counts['battles']:>7} {turns:>7} {'10 b':>5}"
                     + "".join(f" {10 * counts[k] / n:>12.1f}" for k in MISTAKE_KINDS))
        if turns:
            lines.append(f"  {'':<10} {'':>7} {'':>7} {'100 t':>5}"
                         + "".join(f" {100 * counts[k] / turns:>12.2f}" for k in MISTAKE_KINDS))
    return lines
