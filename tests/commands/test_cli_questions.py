"""`fivefoot legal` and `fivefoot explain --from`: the resolver's answers on the command line."""
import json

from game.cli import main


def test_legal_lists_every_kind_with_the_resolvers_reason(capsys):
    assert main(["legal", "maps/corridor.toml", "hero", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["actions"]) == ["move", "turn", "attack", "charge", "set", "aim", "defend", "disengage", "hold",
                                     "stand", "grapple", "trip", "push", "overbear", "escape", "release", "mount", "dismount",
                                     "end-turn"]
    current = data["current"]
    if current != "hero":
        move = data["actions"]["move"]
        assert not move["allowed"] and move["refusal"]["key"] == "turn.not-yours"
        assert move["refusal"]["words"] == f"it is not Hero's turn; it is {move['refusal']['params']['current']}'s"


def test_legal_text_and_unknown_figure(capsys):
    assert main(["legal", "maps/corridor.toml", "gob1", "--ruleset", "odnd"]) == 0
    out = capsys.readouterr().out
    assert "  end-turn" in out and ("yes" in out or "no:" in out)
    assert main(["legal", "maps/corridor.toml", "nobody"]) == 2
    assert "no figure 'nobody'" in capsys.readouterr().err


def test_explain_from_another_square_and_facing(capsys):
    assert main(["explain", "maps/corridor.toml", "hero", "gob1", "--json"]) == 0
    here = json.loads(capsys.readouterr().out)
    gob = here["target"]
    assert main(["explain", "maps/corridor.toml", "hero", gob, "--from", "0,0", "--json"]) == 0
    far = json.loads(capsys.readouterr().out)
    assert far["attacker_at"]["x"] == 0 and far["attacker_at"]["y"] == 0
    assert not far["allowed"] and far["refusals"][0]["key"] in ("attack.beyond-reach", "attack.several")
    assert main(["explain", "maps/corridor.toml", "hero", gob, "--from", "999,0"]) == 2
