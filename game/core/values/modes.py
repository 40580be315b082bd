"""The ways a figure moves (names only: what each means is the planner's, docs/movement.md)."""

# What a Move action may ask for.
MOVE_MODES = ("walk", "jog", "run", "withdraw", "sidestep")
# Every mode the planner knows: a charge runs its lane through the Charge action.
MODES = ("walk", "jog", "run", "charge", "withdraw", "sidestep")
