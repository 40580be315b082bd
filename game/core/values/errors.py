"""Errors the rules layer raises for bad input. The CLI turns them into one line and exit 2."""


class RulesError(ValueError):
    """Input that the rules cannot accept: a bad value in a ruleset, scenario, map or action."""


class DataFileError(RulesError):
    """A data file (ruleset, scenario, map, save) failed validation.

    The message always names the file, the key or line, what is wrong and what is allowed.
    """

    def __init__(self, path: str, where: str, problem: str):
        self.path = str(path)
        self.where = where
        self.problem = problem
        location = f"{self.path}: {where}: " if where else f"{self.path}: "
        super().__init__(location + problem)
