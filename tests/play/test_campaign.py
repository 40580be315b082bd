"""A campaign (game/play/campaign.py, game/io/campaigns.py): played to its end headless by the AI,
the survivors carrying their wounds, the fallen left behind, choices taken, saved atomically
between battles; a damaged campaign file is one line and exit status 2."""
from __future__ import annotations

import pytest

from game.core.battle import Battle
from game.core.values.errors import DataFileError
from game.io.campaigns import load_campaign, load_campaign_save, save_campaign
from game.io.paths import MAPS_DIR
from game.play import campaign as flow

BATTLE = '''title = "{title}"
ruleset = "bfrpg"
seed = 3
[map]
ascii = """
........
........
........
"""
[[figures]]
id = "cap"
side = "blue"
template = "foot"
x = 2
y = 1
facing = "E"
stats = {{ hp = 30, attack_bonus = 8 }}
[[figures]]
id = "aide"
side = "blue"
template = "foot"
x = 2
y = 2
facing = "E"
stats = {{ hp = 30, attack_bonus = 8 }}
[[figures]]
id = "slot3"
side = "blue"
template = "foot"
x = 1
y = 0
facing = "E"
[[figures]]
id = "foe"
side = "red"
template = "normal_man"
x = 3
y = 1
facing = "W"
stats = {{ hp = 2 }}
'''

CAMPAIGN = '''title = "Two Fights"
side = "blue"
[[battles]]
id = "first"
scenario = "a.toml"
[[battles.choices]]
id = "rest"
text = "rest"
heal = 1
[[battles.choices]]
id = "recruit"
text = "a spearman joins"
reinforce = ["spearman"]
[[battles]]
id = "second"
scenario = "b.toml"
'''


def _campaign(tmp_path, text=CAMPAIGN):
    (tmp_path / "a.toml").write_text(BATTLE.format(title="First"))
    (tmp_path / "b.toml").write_text(BATTLE.format(title="Second"))
    path = tmp_path / "c.toml"
    path.write_text(text)
    return path


def test_a_campaign_is_played_to_its_end_headless_carrying_wounds_and_saved_between_battles(tmp_path):
    campaign = load_campaign(_campaign(tmp_path))
    state = flow.start(campaign, seed=4)
    assert [m["id"] for m in state.roster] == ["cap", "aide", "slot3"]
    saves = []
    save = tmp_path / "save.json"

    def keep(s):
        save_campaign(s, save)
        saves.append(load_campaign_save(save).to_json())

    flow.play_headless(campaign, state, pick=lambda offered: "recruit", save=keep, say=lambda _w: None)
    assert state.result == "victory" and [p["battle"] for p in state.played] == ["first", "second"]
    assert state.played[0]["choice"] == "recruit" and len(saves) == 3          # after each battle and the choice
    assert saves[1]["roster"][-1]["template"] == "spearman"
    assert load_campaign_save(save).to_json() == state.to_json()


def test_the_next_battle_starts_with_the_wounds_and_without_the_fallen(tmp_path):
    campaign = load_campaign(_campaign(tmp_path))
    state = flow.start(campaign)
    state.played.append({"battle": "first", "winner": "blue", "decided_by": "elimination", "rounds": 2,
                         "fallen": ["aide"], "choice": ""})
    state.roster = [{"id": "cap", "template": "foot", "name": "Cap", "max_hp": 30, "hp": 12},
                    {"id": "slot3", "template": "foot", "name": "", "max_hp": 8, "hp": 8}]
    state.fallen = ["aide"]
    flow.choose(campaign, state, "rest")
    state.next = "second"
    scenario = flow.scenario_for(campaign, state)
    ids = [f.id for f in scenario.figures]
    assert "aide" not in ids and ids[:2] == ["cap", "slot3"]
    b = Battle.from_scenario(scenario)
    assert (b.states["cap"].hp, b.states["cap"].max_hp) == (13, 30)       # 12 carried, 1 back from the rest
    assert b.figures["cap"].pos == (2, 1) and b.figures["slot3"].pos == (2, 2)   # the scenario's squares


def test_a_lost_battle_ends_the_campaign_in_defeat(tmp_path):
    campaign = load_campaign(_campaign(tmp_path))
    state = flow.start(campaign)
    b = Battle.from_scenario(flow.scenario_for(campaign, state))
    b.state.over, b.state.winner = True, "red"      # stands in for a lost fight: only the winner is read
    words = flow.record(campaign, state, b)
    assert state.result == "defeat" and state.next == "" and "defeat" in words


@pytest.mark.parametrize("change, key", [
    (('scenario = "b.toml"', 'scenario = "missing.toml"'), "battles[2].scenario"),
    (('heal = 1', 'heal = 1\nnext = "first"'), "battles[1].choices[1].next"),
    (('heal = 1', 'heal = 1\nnext = "third"'), "battles[1].choices[1].next"),
    (('id = "second"', 'id = "first"'), "battles[2].id"),
    (('side = "blue"', ''), "side"),
])
def test_a_bad_campaign_file_is_one_line_naming_the_key(tmp_path, capsys, change, key):
    path = _campaign(tmp_path, CAMPAIGN.replace(*change))
    with pytest.raises(DataFileError) as err:
        load_campaign(path)
    assert key in str(err.value) and "\n" not in str(err.value)
    from game.cli import main
    assert main(["campaign", str(path), "--check"]) == 2
    err_text = capsys.readouterr().err
    assert key in err_text and err_text.count("\n") == 1


def test_the_bundled_campaign_loads_every_battle_with_the_company():
    campaign = load_campaign(MAPS_DIR / "campaign" / "campaign.toml")
    assert 3 <= len(campaign.battles) <= 5 and any(c.next for b in campaign.battles for c in b.choices)
    state = flow.start(campaign)
    for battle in campaign.battles:
        state.next = battle.id
        scenario = flow.scenario_for(campaign, state)
        assert [f.id for f in scenario.figures if f.side == "blue"] == [m["id"] for m in state.roster]
        assert scenario.objectives.items
