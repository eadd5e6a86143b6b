"""``sftactics play``: a fight run at the table, one short command at a time.

* :mod:`~sftactics.play.session` the session: reads lines, runs commands, narrates, undo, save.
* :mod:`~sftactics.play.verbs` the short verbs (``attack``, ``grenade``, ``step``...), one for every command,
  derived from the command models, with their syntax, examples and completions.
* :mod:`~sftactics.play.panels` the initiative tracker and the turn panel.
* :mod:`~sftactics.play.lineinput` line editing, history and tab completion in a terminal (prompt_toolkit).
"""

from sftactics.play.panels import tracker, turn_panel
from sftactics.play.session import Cancelled, Session, TableDice, Usage, match_name, play

__all__ = ["Cancelled", "Session", "TableDice", "Usage", "match_name", "play", "tracker", "turn_panel"]
