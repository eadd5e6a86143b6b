"""Every combat action of the Core Rulebook's action sidebar (ACT-08), its kind, and how the engine takes it.

``command`` is the engine command that performs it, or None where the action is not automated yet (the note
says what is missing). Fight defensively is a choice on an attack (standard) or a full attack (full), and ready
costs a standard action although the sidebar lists it among the other actions (inventory §22, ACT-08).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["standard", "move", "swift", "full", "reaction", "other"]


@dataclass(frozen=True, slots=True)
class ActionInfo:
    name: str
    kind: Kind
    rule: str
    command: str | None
    note: str = ""


ACTIONS: tuple[ActionInfo, ...] = (
    # standard actions
    ActionInfo("activate an item", "standard", "ACT-10", "use_ability", "use_ability with kind: item"),
    ActionInfo("attack", "standard", "ACT-11", "attack"),
    ActionInfo("cast a spell", "standard", "ACT-12", "use_ability", "use_ability with kind: spell (effect given)"),
    ActionInfo("combat maneuver", "standard", "ACT-13", "maneuver"),
    ActionInfo("concentrate to maintain a spell", "standard", "ACT-14", "use_ability", "an ability effect each round"),
    ActionInfo("covering fire", "standard", "ACT-15", "covering_fire"),
    ActionInfo(
        "dismiss a spell", "standard", "ACT-16", None, "spells are outside the seeds; the GM removes the effect"
    ),
    ActionInfo("feint", "standard", "ACT-17", "feint"),
    ActionInfo("fight defensively", "standard", "ACT-18", "attack", "attack with fight_defensively: true"),
    ActionInfo("harrying fire", "standard", "ACT-19", "harrying_fire"),
    ActionInfo("total defense", "standard", "ACT-20", "total_defense"),
    ActionInfo("use a special ability", "standard", "ACT-21", "use_ability"),
    # move actions
    ActionInfo("crawl", "move", "ACT-30", "crawl"),
    ActionInfo("direct or redirect an effect", "move", "ACT-31", None, "spells are outside the seeds"),
    ActionInfo("draw or sheathe a weapon", "move", "ACT-32", "draw", "and sheathe; move with draw: NAME"),
    ActionInfo("guarded step", "move", "ACT-33", "guarded_step"),
    ActionInfo("manipulate an item", "move", "ACT-34", "manipulate", "pick up a thrown weapon: pick_up"),
    ActionInfo("move your speed", "move", "ACT-35", "move"),
    ActionInfo("reload", "move", "ACT-36", "reload"),
    ActionInfo("stand up", "move", "ACT-37", "stand_up"),
    # swift actions
    ActionInfo("change grips", "swift", "ACT-40", "change_grip", "one or two hands on a two-handed weapon"),
    ActionInfo("drop prone", "swift", "ACT-41", "drop_prone"),
    # full actions
    ActionInfo("charge", "full", "ACT-50", "charge"),
    ActionInfo("coup de grace", "full", "ACT-51", "coup_de_grace"),
    ActionInfo("fight defensively", "full", "ACT-52", "full_attack", "full_attack with fight_defensively: true"),
    ActionInfo("full attack", "full", "ACT-53", "full_attack"),
    ActionInfo("run", "full", "ACT-54", "run"),
    ActionInfo("withdraw", "full", "ACT-55", "withdraw"),
    # reactions
    ActionInfo("attack of opportunity", "reaction", "ACT-60", None, "automatic: the engine raises and resolves them"),
    # other actions
    ActionInfo("combat banter", "other", "ACT-70", None, "no action: say it"),
    ActionInfo("delay", "other", "ACT-71", "delay"),
    ActionInfo("drop an item", "other", "ACT-72", "drop_item"),
    ActionInfo("ready an action", "standard", "ACT-73", "ready", "listed under other actions; costs a standard"),
    ActionInfo("use a skill", "other", "ACT-74", "first_aid", "first aid (Medicine); any other task: check"),
)


def by_name(name: str) -> list[ActionInfo]:
    return [a for a in ACTIONS if a.name == name]
