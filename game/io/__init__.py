"""Reading and writing files: rulesets, scenarios, maps, saves. Everything is validated on load."""
