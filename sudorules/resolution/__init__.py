"""Resolution paths as data: steps and their notation, states, printing and independent verification.

* :mod:`.steps` - :class:`Step`, :class:`Resolution` and their parts (CSP variables, chain cells,
  Subset patterns), with JSON forms;
* :mod:`.state` - a plain resolution state (values and candidates);
* :mod:`.path` - printing a path in SudoRules' notation (SPEC §6);
* :mod:`.notation` - reading printed paths back into steps;
* :mod:`.verify` - the independent verifier: every step replayed from the definitions (SPEC §4),
  not from the rules.
"""

from .notation import NotationError, parse_step, read_path
from .path import format_path, path_lines
from .state import ResolutionState
from ..errors import NotSolvedError, TimeLimitError
from .steps import ChainCell, CspVariable, Resolution, Step, SubsetPattern, variables_of
from .verify import PathReport, check_step, replay

__all__ = ["ChainCell", "CspVariable", "NotSolvedError", "NotationError", "PathReport", "Resolution",
           "ResolutionState", "Step", "SubsetPattern", "TimeLimitError", "check_step", "format_path", "parse_step",
           "path_lines", "read_path", "replay", "variables_of"]
