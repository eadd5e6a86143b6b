"""The narration rendered from event data reads well."""

import pytest


@pytest.mark.rule("SEN-03")
def test_awareness_reads_one_line_per_observer() -> None:
    from sftactics.encounter.narrate import awareness_lines

    lines = awareness_lines({"Krask>EMT": 3, "Krask>Tracer 1": 2, "Krask>Tracer 2": 2, "EMT>Krask": 1, "Nyx>Gob": 0})
    assert lines == [
        "  EMT knows Krask is near but not where",
        "  Krask sees EMT; knows where Tracer 1, Tracer 2 are but cannot see them",
        "  Nyx is unaware of Gob",
    ]


@pytest.mark.rule("CF-02")
def test_the_end_of_fight_summary_counts_drops_deaths_and_damage_from_every_source() -> None:
    from sftactics.encounter.commands import Begin
    from sftactics.encounter.narrate import fight_summary
    from tests.encounter.helpers import duo, fight

    f = fight(duo(), [10, 5])
    f.do(Begin())
    tess = f.state.get("Tess").creature.stat
    f.do({"type": "damage", "target": "Tess", "amount": tess.sp + tess.hp})  # drops her (a PC: dying)
    f.do({"type": "heal", "target": "Tess", "hp": 3})
    f.do({"type": "damage", "target": "Ksarik", "amount": 100})
    lines = fight_summary(f.state, f.all_events())
    assert lines[:4] == ["Rounds: 1", "Dropped: Tess", "Back on their feet: Tess", "Died: Ksarik"]
    assert f"  Tess (party): dealt 0 with attacks, took {tess.sp + tess.hp}" in lines
    assert "  Ksarik (aliens): dealt 0 with attacks, took 100" in lines


@pytest.mark.rule("INJ-07")
def test_the_one_line_attack_says_when_the_target_dies() -> None:
    from sftactics.encounter import narrate
    from sftactics.encounter.commands import Begin
    from tests.encounter.helpers import duo, fight

    f = fight(duo(), [15, 5, 19, 4, 4])  # initiative, the d20, the baton's 1d4
    f.do(Begin())
    k = f.state.get("Ksarik").creature
    f.do({"type": "damage", "target": "Ksarik", "amount": k.state.sp + k.state.hp - 1})
    events = f.do({"type": "attack", "actor": "Tess", "target": "Ksarik"})
    brief = [line for line in narrate.lines(events, verbose=False) if "attacks Ksarik" in line]
    assert len(brief) == 1 and brief[0].endswith("; Ksarik dies")
