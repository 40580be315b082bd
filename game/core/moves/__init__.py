"""Moving figures: paths and their steps, the planner's search, charge lanes, engagement and
parting shots, line of sight and cover, and why a square cannot be reached."""
