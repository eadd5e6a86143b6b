"""Simulation: play an encounter thousands of times with sensible tactics on both sides and report how likely
it is to drop or kill someone (``docs/simulation.md``).

* :mod:`~sftactics.sim.policies`: decision makers (``simple``, ``tactical``, ``engine``), through
  :mod:`~sftactics.sim.perception` (what a side perceives) and :mod:`~sftactics.sim.odds` (exact odds);
* :mod:`~sftactics.sim.fight`: one fight without a log (``SimFight``), its statistics (``Tracker``);
* :mod:`~sftactics.sim.runner`: seed streams, batches, the ``local`` and ``dask`` backends (``simulate``);
* :mod:`~sftactics.sim.stats`: results, aggregation, Wilson intervals; :mod:`~sftactics.sim.report`: plots;
* :mod:`~sftactics.sim.sweep`: grids of variations; :mod:`~sftactics.sim.cli`: the commands;
* :mod:`~sftactics.sim.benchmark`: the standard benchmark encounter.
"""

from sftactics.sim.fight import SimFight, play_fight, run_fight
from sftactics.sim.policies import SimplePolicy, TacticalPolicy, TacticalWeights, make_policy, policy_names
from sftactics.sim.runner import SimJob, fight_seed, simulate
from sftactics.sim.stats import CombatantOutcome, FightResult, Summary, aggregate, wilson

__all__ = [
    "CombatantOutcome",
    "FightResult",
    "SimFight",
    "SimJob",
    "SimplePolicy",
    "Summary",
    "TacticalPolicy",
    "TacticalWeights",
    "aggregate",
    "fight_seed",
    "make_policy",
    "play_fight",
    "policy_names",
    "run_fight",
    "simulate",
    "wilson",
]
