"""Every shipped 1st-edition grid scenario plays in the compiled kernel (issue 22), or is listed here with exactly
why not (docs/simulation.md says the same).

Vehicle fights, chases and 2nd-edition scenarios stay with the engine for now: a file that does not load as a
1st-edition grid encounter is left out. A scenario the kernel refuses must appear in :data:`STILL_REFUSED` with
its reasons word for word, so a refusal can neither appear nor disappear unnoticed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sftactics.encounter.state import Encounter
from sftactics.io.scenario import load_scenario
from sftactics.sim.runner import SimJob, run_batch

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*ROOT.glob("scenarios/*.yaml"), *ROOT.glob("examples/scenarios/*.yaml")])
FIGHTS = 40

#: What the kernel still leaves to the engine, per scenario (walls, light and perception; sizes and movement
#: modes; a scenario's setup: the parts of issue 22 other work adds).
STILL_REFUSED: dict[str, list[str]] = {}
#: What the kernel leaves to the engine with the tactical policy only, before the refusals above: nothing today
#: (the tactical kernel plays imposed cover, Stealth, big walkers and big fliers; ``boarding-action`` and
#: ``sniper-nest`` were the last two here).
TACTICAL_REFUSED: dict[str, list[str]] = {}


def _grid_1e(path: Path) -> Encounter | None:
    """The scenario as a 1st-edition grid encounter without vehicles, or None (a vehicle fight, a chase, a
    2nd-edition file)."""
    try:
        enc = load_scenario(path)
    except Exception:
        return None
    if enc.grid is None or getattr(enc, "vehicles", None) or getattr(enc, "ruleset", "sf1e") not in ("sf1e", None):
        return None
    return enc


def test_eleven_shipped_scenarios_are_1st_edition_grid_fights() -> None:
    # each plays in the kernel with both policies (the test below; docs/simulation.md counts them)
    played = [p.stem for p in SHIPPED if _grid_1e(p) is not None]
    assert len(played) == 11 and {"boarding-action", "sniper-nest"} <= set(played)


def test_the_shipped_scenarios_are_found() -> None:
    names = {p.stem for p in SHIPPED}
    assert {"firefight-cover", "grenade-alley", "bulkhead-hunt", "derelict-ambush"} <= names
    assert set(STILL_REFUSED) | set(TACTICAL_REFUSED) <= names


@pytest.mark.rule("ACT-21", "CF-02")
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_shipped_scenario_plays_in_the_kernel_or_says_why(path: Path) -> None:
    enc = _grid_1e(path)
    if enc is None:
        pytest.skip("not a 1st-edition grid scenario (vehicles, chases and 2nd edition stay with the engine)")
    # the kernel plays the pregens' class abilities (kernel.classes): healing channel, trick attack, get 'em
    for policy in ("simple", "tactical"):
        job = SimJob(enc, {"*": policy}, seed=5, engine="compiled")
        why = job.kernel_refusals()
        expected = STILL_REFUSED.get(path.stem, [])
        if policy == "tactical":
            expected = TACTICAL_REFUSED.get(path.stem, []) + expected
        assert why == expected, f"{path.stem}: the kernel's refusals changed"
        if why:
            with pytest.raises(ValueError, match="the compiled kernel cannot play"):
                job.compiled()
            continue
        assert job.compiled()
        results = run_batch(job, 0, FIGHTS)
        failed = [r for r in results if r.error is not None]
        assert not failed, f"fight {failed[0].index} failed:\n{failed[0].error}"
        assert len(results) == FIGHTS and all(r.rounds >= 1 for r in results)
