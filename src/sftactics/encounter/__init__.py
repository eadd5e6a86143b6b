"""The encounter engine: state as a value, commands in, events out, a log that replays.

* ``state.py``    - the encounter value (combatants, timeline, timed effects);
* ``commands.py`` - what a person, a script or a policy may ask for;
* ``events.py``   - what happened, and how each event changes the state (``apply``);
* ``budget.py``   - the action economy of a turn (ACT-01..08, CF-09, CF-17);
* ``timing.py``   - durations and expiries (CF-13, CF-14), turn-anchored effects;
* ``flow.py``     - awareness, initiative, rounds and turns (CF-01..17), start/end of turn upkeep;
* ``actions.py``  - resolving each command into events;
* ``footing.py``  - squeezing (MOV-19) and moving blind (CON-03) on the way;
* ``engine.py``   - ``step(state, command, dice)``, the only entry point; replay and undo;
* ``policy.py``   - a simple built-in decision maker for ``sftactics run``;
* ``narrate.py``  - events as lines a GM can read.
"""
