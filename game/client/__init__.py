"""The window's pygame-free half: the session (the window's door to the battle, undo by decision),
the rules view (the resolver's answers cached per position, long searches on a worker), what a
click means (intent), the words and numbers shown (describe, comparison), who plays each side
(players), the request table, the window's remembered state, animation timing, save slots and
scripts. Nothing here draws or imports pygame: game/ui draws it, and commands may use it."""
