"""The 2nd edition in the encounter engine: a scenario with ``ruleset: sf2e`` is played by these modules.

The shared engine (state, events, the transaction, movement and the grid, the end of a fight, the log and its
replay) is the same for both editions; :func:`sftactics.encounter.engine.step` hands a 2E fight's commands to
:func:`engine2e.step2e`. Each 2E combatant carries a :class:`model.Body2e` (the rules' ``Creature2e`` and its
turn) beside the shared ``Combatant`` fields; its ``creature`` is a plain 1E face of it (name, size, HP,
dying/unconscious/dead/prone) so views, maps and the end-of-fight check read it like any other.
"""
