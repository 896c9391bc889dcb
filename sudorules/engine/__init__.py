"""The rule engine: CLIPS rules run by clipspy, simplest first (docs/engine.md).

* :mod:`.driver` - :class:`Engine`, one CLIPS environment loaded with a theory's rules;
* :mod:`.bridge` - the Python functions the rules call back, which turn firings into steps;
* :mod:`.schedule` and :mod:`.trial` - the order in which the B theory grows braids, target by
  target, from a trial propagation;
* :mod:`.rulegen` - the CLIPS text of a theory: saliences, rule files, per-length generated rules;
* :mod:`.labels` - the one integer encoding of labels and CSP variables the rules use;
* :mod:`.solver` - :class:`Solver`: check a puzzle with the core, then run the rules.
"""

from .._lazy import exports

_NAMES = {"Engine": "driver", "LINKS": "labels", "candidate_of_label": "labels", "label_variables": "labels",
          "variable_id": "labels", "variable_of_id": "labels", "Solver": "solver", "unique_solution": "solver"}
__all__ = sorted(_NAMES)
__getattr__, __dir__ = exports(__name__, _NAMES)
