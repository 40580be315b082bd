"""The battle's leaf values: figures and their bodies, actions, events and refusals, squares and
facings, the battle map and its layers, errors. Nothing here imports the rest of the game: every
other package stands on these."""
