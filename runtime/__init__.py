"""bidwhist's runtime: a generic trick-taking engine driven by a compiled ``Ruleset``.

It knows nothing of files, YAML or Lark and imports without the compiler:
``ruleset`` (the tables), ``hand`` (one hand's state machine), ``game`` (seeded
games), ``records`` (hand/game records and replay), ``bots`` and ``simulate``.
"""

from .errors import IllegalAction
from .game import GameState
from .hand import HandState
from .ruleset import Ruleset

__all__ = ["GameState", "HandState", "IllegalAction", "Ruleset"]
