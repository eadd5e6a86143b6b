import pytest

from sftactics.encounter.actions import HANDLERS
from sftactics.encounter.catalogue import ACTIONS, by_name


@pytest.mark.rule("ACT-08", "ACT-01")
def test_the_sidebar_catalogue_lists_every_action_with_its_kind() -> None:
    sidebar = {
        "standard": ["activate an item", "attack", "cast a spell", "combat maneuver",
                     "concentrate to maintain a spell", "covering fire", "dismiss a spell", "feint",
                     "fight defensively", "harrying fire", "total defense", "use a special ability"],
        "move": ["crawl", "direct or redirect an effect", "draw or sheathe a weapon", "guarded step",
                 "manipulate an item", "move your speed", "reload", "stand up"],
        "swift": ["change grips", "drop prone"],
        "full": ["charge", "coup de grace", "fight defensively", "full attack", "run", "withdraw"],
        "reaction": ["attack of opportunity"],
        "other": ["combat banter", "delay", "drop an item", "use a skill"],
    }  # fmt: skip
    for kind, names in sidebar.items():
        for name in names:
            assert any(a.kind == kind for a in by_name(name)), (name, kind)
    # ready an action is listed under other but costs a standard action (ACT-08 conflict, ACT-73)
    assert by_name("ready an action")[0].kind == "standard"
    for a in ACTIONS:
        assert a.command is None or a.command in HANDLERS, a
