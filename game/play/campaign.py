"""A campaign: battles in a row, the player's side carrying its survivors (and their wounds) from one
to the next, with a choice between battles (rest, reinforce, a shorter or a safer road), saved
between battles (docs/campaign.md). The file side is game/io/campaigns.py; the window's side is
game/ui/campaignwindow.py; `play_headless` plays one through with the AI on every side.
"""
from __future__ import annotations

from pathlib import Path

from ..io.campaigns import Campaign, CampaignState
from ..io.scenarios import scenario_from_data
from ..io.toml_file import read_toml

FIGURE_NAMED = ("protect", "fell", "reach")


def start(campaign: Campaign, seed: int = 1) -> CampaignState:
    """A new campaign: its first battle next, the player's side as that battle sets it up."""
    first = campaign.battles[0]
    data = read_toml(first.scenario)
    roster = [{"id": f["id"], "template": f.get("template", ""), "name": f.get("name", ""), "max_hp": 0, "hp": 0,
               "stats": {k: v for k, v in f.get("stats", {}).items() if k not in ("hp", "wounds")}}
              for f in data.get("figures", []) if isinstance(f, dict) and f.get("side") == campaign.side]
    return CampaignState(campaign=campaign.source, next=first.id, seed=seed, roster=roster)


def scenario_for(campaign: Campaign, state: CampaignState):
    """The next battle's scenario with the side's slots filled by the roster (wounds and all):
    the figures the scenario lists for the side give the squares; a member keeps its id, template
    and name; slots left over stay empty and members beyond the slots wait this battle out."""
    battle = campaign.battle(state.next)
    data = read_toml(battle.scenario)
    slots = [f for f in data.get("figures", []) if f.get("side") == campaign.side]
    others = [f for f in data.get("figures", []) if f.get("side") != campaign.side]
    figures = []
    for member, slot in zip(state.roster, slots):
        entry = {k: v for k, v in slot.items() if k in ("x", "y", "facing", "altitude_ft")}
        entry.update(id=member["id"], side=campaign.side, template=member["template"], name=member["name"],
                     stats=dict(member.get("stats", {})))
        if member["max_hp"]:
            entry["stats"].update(hp=member["max_hp"], wounds=member["max_hp"] - member["hp"])
        figures.append(entry)
    present = {f["id"] for f in figures} | {f.get("id") for f in others}
    data["figures"] = figures + others
    # An objective naming one of the side's figures that is not here (fallen, waiting) is left out.
    data["objectives"] = [o for o in data.get("objectives", [])
                          if not (o.get("kind") in FIGURE_NAMED and o.get("figure") and o["figure"] not in present)]
    data["seed"] = state.seed + len(state.played)
    return scenario_from_data(data, Path(battle.scenario))


def record(campaign: Campaign, state: CampaignState, battle) -> str:
    """After a battle: who of the side came through and with what hit points, who fell; the
    result. Returns the words for it."""
    fought = state.next
    fallen, kept = [], []
    won = battle.winner == campaign.side
    for member in state.roster:
        st = battle.states.get(member["id"])
        if st is None:                  # waited this one out
            kept.append(member)
            continue
        escaped = st.fled and "routed" not in st.conditions
        if st.has("dead") or (st.out_of_fight and not escaped and not won):
            fallen.append(member["id"])
            continue
        kept.append({**member, "max_hp": st.max_hp, "hp": max(1, st.hp)})    # the downed come round after a win
    state.roster = kept
    state.fallen += fallen
    state.played.append({"battle": fought, "winner": battle.winner or "", "decided_by": battle.decided_by,
                         "rounds": battle.round, "fallen": fallen, "choice": ""})
    if not won or not kept:
        state.result, state.next = "defeat", ""
        return f"{fought}: lost ({battle.winner or 'a draw'}); the campaign ends in defeat"
    state.next = campaign.after(fought)
    if not state.next and not campaign.battle(fought).choices:
        state.result = "victory"
    words = f"{fought}: won in {battle.round} round(s)" + (f"; fallen: {', '.join(fallen)}" if fallen else "")
    return words + "; survivors: " + ", ".join(f"{m['id']} {m['hp']}/{m['max_hp']} hp" for m in kept)


def choices(campaign: Campaign, state: CampaignState):
    """The choices offered now (after the battle just won), or ()."""
    if state.result or not state.played:
        return ()
    last = state.played[-1]
    if last["choice"]:
        return ()
    return campaign.battle(last["battle"]).choices


def choose(campaign: Campaign, state: CampaignState, choice_id: str, ruleset=None) -> str:
    """Take a choice: heal the survivors, take on reinforcements, take another road."""
    offered = {c.id: c for c in choices(campaign, state)}
    if choice_id not in offered:
        from ..core.values.errors import RulesError
        raise RulesError(f"choice {choice_id!r} is not offered now; choices: {', '.join(offered) or 'none'}")
    c = offered[choice_id]
    state.played[-1]["choice"] = c.id
    for member in state.roster:
        if c.heal and member["max_hp"]:
            member["hp"] = min(member["max_hp"], member["hp"] + c.heal)
    taken = {m["id"] for m in state.roster} | set(state.fallen)
    for template in c.reinforce:
        n = 1
        while f"{template}{n}" in taken:
            n += 1
        taken.add(f"{template}{n}")
        state.roster.append({"id": f"{template}{n}", "template": template, "name": "", "max_hp": 0, "hp": 0,
                             "stats": {}})
    if c.next:
        state.next = c.next
    if not state.next:
        state.result = "victory"
    return f"{c.id}: {c.text}"


def play_headless(campaign: Campaign, state: CampaignState, pick=None, save=None, difficulty: str = "normal",
                  max_rounds: int = 30, say=print) -> CampaignState:
    """Play the campaign to its end with the AI on every side; `pick(choices) -> id` (default the
    first); `save(state)` after every battle and choice."""
    from ..core.battle import Battle
    from ..ai.brain import AI
    from .turns import play_out
    while state.next and not state.result:
        scenario = scenario_for(campaign, state)
        say(f"battle {state.next}: {scenario.title}")
        battle = Battle.from_scenario(scenario)
        sides = dict.fromkeys(f.side for f in scenario.figures)
        play_out(battle, {s: AI(difficulty, seed=scenario.seed) for s in sides}, max_rounds=max_rounds)
        say("  " + record(campaign, state, battle))
        if save:
            save(state)
        offered = choices(campaign, state)
        if offered:
            chosen = pick(offered) if pick else offered[0].id
            say("  chose " + choose(campaign, state, chosen))
            if save:
                save(state)
    say(f"the campaign ends: {state.result}")
    return state
