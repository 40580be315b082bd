"""Combat mechanisms for the resolver, one job per module.

dice        parsing and rolling dice expressions from the battle's seeded RNG
profile     a figure's combat numbers under a ruleset (template + scenario overrides)
state       per-figure combat state (hit points, conditions, what is left this round)
rounds      surprise, initiative and the order of turns in a round
modifiers   the situational modifiers an attack gets, derived from position (no dice)
attack      rolling an attack: hit or miss, criticals, fumbles, damage
damage      applying damage: hit point thresholds, subdual, stun, falling
morale      morale checks
The numbers all come from the ruleset data; these modules hold only mechanisms.
"""
