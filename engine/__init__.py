"""Pure game rules for Agora: standard library only, no I/O, no clock, no global random.

The public surface is re-exported from :mod:`engine.core`; games live in sub-packages and are
found by name with :func:`find_game`.
"""

from engine.core import *  # noqa: F403
from engine.core import __all__ as __all__
