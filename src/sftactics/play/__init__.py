"""``sftactics play``: a fight run at the table, one short command at a time.

* :mod:`~sftactics.play.session` the session: reads lines, runs commands, narrates, undo, save.
* :mod:`~sftactics.play.verbs` the table of short verbs (``attack``, ``grenade``, ``step``...), one for every
  command, with their syntax, examples and what to complete; ``help``.
* :mod:`~sftactics.play.grammar` the hand-written syntax of the common verbs; :mod:`~sftactics.play.fields` the
  verbs read off the command models (every other command, and any added later).
* :mod:`~sftactics.play.panels` the initiative tracker and the turn panel.
* :mod:`~sftactics.play.lineinput` line editing, history and tab completion in a terminal (prompt_toolkit).
"""

from sftactics.play.panels import tracker, turn_panel
from sftactics.play.session import Cancelled, Session, TableDice, Usage, match_name, play

__all__ = ["Cancelled", "Session", "TableDice", "Usage", "match_name", "play", "tracker", "turn_panel"]
