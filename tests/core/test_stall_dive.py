"""bfrpg:maneuverability: a winged flyer that flies less than a third of its move stalls, and its
next round's movement is a dive at its full rate (the resolver holds it to that)."""
from game.core.values.actions import EndTurn, Move
from game.core.values.events import EventKind

from battles import OPEN, fig, make_battle


def stalled_griffon():
    b = make_battle("bfrpg", OPEN, [fig("g", "blue", 4, 4, "E", template="flyer", altitude_ft=60, stats={"hp": 30}),
                                    fig("x", "red", 14, 8, "W", stats={"hp": 30})])
    while b.current != "g":
        b.apply(EndTurn(b.current))
    events = b.apply(Move("g", to=(5, 4), altitude_ft=60))
    assert any(e.kind == EventKind.STALL for e in events)
    assert b.figures["g"].must_dive
    b.apply(EndTurn("g"))
    while b.current != "g":
        b.apply(EndTurn(b.current))
    return b


def test_a_stalled_flyer_may_only_dive_next_round():
    b = stalled_griffon()
    refusal = b.check(Move("g", to=(9, 4)))
    assert refusal is not None and "dive" in refusal.words
    before = b.figures["g"].altitude_ft
    b.apply(Move("g", to=(5, 4)))
    g = b.figures["g"]
    assert g.altitude_ft < before and not g.must_dive


def test_ending_the_turn_without_moving_takes_the_dive():
    b = stalled_griffon()
    before = b.figures["g"].altitude_ft
    events = b.apply(EndTurn("g"))
    assert events[0].kind == EventKind.STALL and events[0].data == {"forced_dive": True}
    assert any(e.kind == EventKind.MOVE for e in events)
    assert b.figures["g"].altitude_ft < before and not b.figures["g"].must_dive


def test_a_carried_path_may_be_any_legal_route_and_an_illegal_one_names_its_step():
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 2, 2, "E", stats={"hp": 30}), fig("z", "red", 14, 8, "W", stats={"hp": 30})])
    while b.current != "a":
        b.apply(EndTurn(b.current))
    # East twice then north-east: legal for a free-turning walker, though not the only cheapest way.
    route = ((3, 2, 2, 0), (4, 2, 2, 0), (5, 1, 1, 0))
    assert b.check(Move("a", to=(5, 1), path=route)) is None
    broken = ((3, 2, 2, 0), (5, 2, 2, 0))
    refusal = b.check(Move("a", to=(5, 2), path=broken))
    assert refusal.key == "move.path" and "step 2" in refusal.words


def test_a_declared_flight_that_stalls_marks_the_flyer_when_it_arrives():
    """spelljammer declares moves before the segments play them out (Movement and Combat); the
    stall (the shared flyer rule, bfrpg:maneuverability, a documented choice there) comes with the
    flight's last step, so its next movement is the dive."""
    b = make_battle("spelljammer", OPEN, [fig("g", "blue", 4, 4, "E", template="flyer", altitude_ft=60, stats={"hp": 30}),
                                          fig("x", "red", 14, 8, "W", stats={"hp": 30})])
    for _ in range(40):
        if b.current == "g" and b.check(Move("g", to=(5, 4), altitude_ft=60)) is None:
            break
        b.apply(EndTurn(b.current))
    events = b.apply(Move("g", to=(5, 4), altitude_ft=60))
    assert any(e.kind == EventKind.DECLARE_MOVE for e in events)
    assert not b.figures["g"].must_dive          # declared, not flown yet
    for _ in range(60):
        if b.figures["g"].pos == (5, 4):
            break
        b.apply(EndTurn(b.current))
    assert b.figures["g"].pos == (5, 4)
    assert b.figures["g"].must_dive
    assert any(e.kind == EventKind.STALL and e.actor == "g" for e in b.events)
