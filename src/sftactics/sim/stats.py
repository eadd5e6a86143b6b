"""Results of simulated fights and their aggregation.

One fight gives a :class:`FightResult` (small, picklable, JSON-able): who won, in how many rounds, and per
combatant whether it was knocked out or died, the Resolve it spent or lost, the damage it dealt and took, and
what killed it. :func:`aggregate` folds many of them into a :class:`Summary`: win probabilities with Wilson 95%
confidence intervals, the distribution of rounds, per-combatant chances and means, and the most common causes
of player-character deaths. Aggregation depends only on the results in run order, so it is the same whatever
backend or number of workers produced them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sftactics.core.errors import SftError

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class CombatantOutcome:
    """What happened to one combatant in one fight.

    ``knocked_out``: unconscious, dying or dead at any moment of the fight (dropped at least once).
    ``died``: dead when the fight ended. ``dying_at_end``: still dying when it ended (it dies unless someone
    stabilizes it soon). ``rp_spent``: Resolve spent by choice (to stabilize, stay in the fight or pay for an
    ability such as healing channel); ``rp_lost``: Resolve lost otherwise (dying). ``damage_dealt`` /
    ``damage_taken``: Stamina, Hit Points and temporary HP removed, after DR and resistances (damage to allies
    counts as dealt too). ``death_cause``: what killed it.
    """

    id: str
    side: str
    pc: bool
    knocked_out: bool
    died: bool
    dying_at_end: bool
    rp_spent: int
    rp_lost: int
    damage_dealt: int
    damage_taken: int
    death_cause: str | None = None


@dataclass(frozen=True, slots=True)
class FightResult:
    """One simulated fight. ``winner`` is None for a draw (no side left able to fight, or the round limit with
    both sides standing). ``conceded`` names a side whose every able member retreated (the others win)."""

    index: int
    seed: int
    winner: str | None
    rounds: int
    reason: str
    combatants: tuple[CombatantOutcome, ...]
    conceded: str | None = None
    error: str | None = None  # the traceback of a fight that failed; it is left out of every figure

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def round_limited(self) -> bool:
        return self.reason.startswith("round limit")


def failed_fight(index: int, seed: int, error: str) -> FightResult:
    """The record of a fight that raised instead of finishing: kept (with its seed, to replay it) and reported,
    never counted as a result."""
    return FightResult(index, seed, None, 0, "failed", (), error=error)


# ---------------------------------------------------------------- intervals
def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default): (low, high). (0, 1) when ``n`` is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


@dataclass(frozen=True, slots=True)
class Proportion:
    """A probability estimated from ``count`` out of ``n`` fights, with its Wilson 95% interval."""

    count: int
    n: int

    @property
    def p(self) -> float:
        return self.count / self.n if self.n else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.count, self.n)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.ci
        return {"p": self.p, "ci95": [lo, hi], "count": self.count, "n": self.n}

    def describe(self) -> str:
        lo, hi = self.ci
        return f"{100 * self.p:.1f}% [{100 * lo:.0f}-{100 * hi:.0f}]"


# ---------------------------------------------------------------- summary
@dataclass(frozen=True, slots=True)
class SideSummary:
    side: str
    members: tuple[str, ...]
    pcs: bool  # the side has player characters
    win: Proportion
    any_knocked_out: Proportion  # at least one member dropped
    any_died: Proportion  # at least one member dead at the end
    any_died_or_left: Proportion  # ... or still dying at the end of a fight the side did not win
    conceded: Proportion  # the side retreated


@dataclass(frozen=True, slots=True)
class CombatantSummary:
    id: str
    side: str
    pc: bool
    knocked_out: Proportion
    died: Proportion
    dying_at_end: Proportion
    rp_spent: float  # means per fight
    rp_lost: float
    damage_dealt: float
    damage_taken: float


@dataclass(frozen=True, slots=True)
class RoundStats:
    histogram: dict[int, int]
    mean: float
    median: float
    p90: int
    max: int


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean (or a share) with its 95% interval."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "ci95": [self.low, self.high]}


def mean_estimate(values: Sequence[float]) -> Estimate:
    """The mean with a normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return Estimate(m, m, m)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Estimate(m, m - half, m + half)


def share_estimate(parts: Sequence[float], totals: Sequence[float]) -> Estimate:
    """sum(parts) / sum(totals) over fights, with a 95% interval by the delta method (ratio of means)."""
    n = len(parts)
    total = sum(totals)
    if n == 0 or total <= 0:
        return Estimate(0.0, 0.0, 0.0)
    r = sum(parts) / total
    if n == 1:
        return Estimate(r, r, r)
    mt = total / n
    resid = [p - r * t for p, t in zip(parts, totals, strict=True)]
    mr = sum(resid) / n
    var = sum((x - mr) ** 2 for x in resid) / (n - 1)
    half = Z95 * math.sqrt(var / n) / mt
    return Estimate(r, max(0.0, r - half), min(1.0, r + half))


@dataclass(frozen=True, slots=True)
class Headline:
    """What a GM fears, in plain words: a total party kill (every PC dead, or dying with nobody left to save
    them), at least one PC dead, at least one PC dropped, the expected length, and the foe that deals the
    largest share of its side's damage."""

    party: str
    tpk: Proportion
    pc_death: Proportion
    pc_drop: Proportion
    rounds: Estimate
    danger: str | None
    danger_share: Estimate

    def to_dict(self) -> dict[str, Any]:
        return {
            "party": self.party,
            "total_party_kill": self.tpk.to_dict(),
            "pc_death": self.pc_death.to_dict(),
            "pc_drop": self.pc_drop.to_dict(),
            "rounds": self.rounds.to_dict(),
            "most_dangerous_foe": None if self.danger is None else {"id": self.danger, **self.danger_share.to_dict()},
        }


def headline(fights: Sequence[FightResult]) -> Headline | None:
    """The :class:`Headline` of fights in which one side has player characters (None if none has)."""
    if not fights:
        return None
    first = fights[0]
    party = next((c.side for c in first.combatants if c.pc), None)
    if party is None:
        return None
    n = len(fights)
    tpk = death = drop = 0
    dealt: dict[str, list[float]] = {}
    totals: list[float] = []
    for f in fights:
        pcs = [c for c in f.combatants if c.pc and c.side == party]
        lost = [c.died or (c.dying_at_end and f.winner != party) for c in pcs]
        tpk += bool(pcs) and all(lost)
        death += any(c.died for c in pcs)
        drop += any(c.knocked_out for c in pcs)
        foes = [c for c in f.combatants if c.side != party]
        totals.append(float(sum(c.damage_dealt for c in foes)))
        for c in foes:
            dealt.setdefault(c.id, [0.0] * (len(totals) - 1)).append(float(c.damage_dealt))
        for xs in dealt.values():
            if len(xs) < len(totals):
                xs.append(0.0)
    danger = max(dealt, key=lambda cid: (sum(dealt[cid]), cid)) if dealt and sum(totals) > 0 else None
    share = share_estimate(dealt[danger], totals) if danger is not None else Estimate(0.0, 0.0, 0.0)
    return Headline(party, Proportion(tpk, n), Proportion(death, n), Proportion(drop, n),
                    mean_estimate([f.rounds for f in fights]), danger, share)  # fmt: skip


@dataclass(frozen=True)
class Summary:
    """Everything a simulation reports. ``meta`` (scenario, policies, seed, runs) and ``timing`` are filled by
    the runner; ``timing`` is the only part that depends on the machine."""

    runs: int
    sides: tuple[SideSummary, ...]
    draws: Proportion
    rounds: RoundStats
    combatants: tuple[CombatantSummary, ...]
    pc_death_causes: tuple[tuple[str, int], ...]
    round_limited: Proportion = Proportion(0, 0)  # fights ended by the round limit
    failures: tuple[FightResult, ...] = ()  # fights that failed (seed, index, traceback); not in any figure
    headline: Headline | None = None  # what a GM fears, first (None without player characters)
    ended_by_retreat: Proportion = Proportion(0, 0)  # fights a side ended by retreating (conceding; sim.morale)
    meta: dict[str, Any] = field(default_factory=dict)
    timing: dict[str, Any] = field(default_factory=dict)

    def side(self, name: str) -> SideSummary:
        for s in self.sides:
            if s.side == name:
                return s
        raise KeyError(name)

    @property
    def party(self) -> SideSummary | None:
        """The side with player characters (the first one if several), or None."""
        return next((s for s in self.sides if s.pcs), None)

    def to_dict(self, *, timing: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "meta": self.meta,
            "runs": self.runs,
            "sides": {
                s.side: {
                    "members": list(s.members),
                    "pcs": s.pcs,
                    "win": s.win.to_dict(),
                    "any_knocked_out": s.any_knocked_out.to_dict(),
                    "any_died": s.any_died.to_dict(),
                    "any_died_or_left_dying": s.any_died_or_left.to_dict(),
                    "conceded": s.conceded.to_dict(),
                }
                for s in self.sides
            },
            "draw": self.draws.to_dict(),
            "rounds": {
                "histogram": {str(k): v for k, v in sorted(self.rounds.histogram.items())},
                "mean": self.rounds.mean,
                "median": self.rounds.median,
                "p90": self.rounds.p90,
                "max": self.rounds.max,
            },
            "combatants": {
                c.id: {
                    "side": c.side,
                    "pc": c.pc,
                    "knocked_out": c.knocked_out.to_dict(),
                    "died": c.died.to_dict(),
                    "dying_at_end": c.dying_at_end.to_dict(),
                    "rp_spent": c.rp_spent,
                    "rp_lost": c.rp_lost,
                    "damage_dealt": c.damage_dealt,
                    "damage_taken": c.damage_taken,
                }
                for c in self.combatants
            },
            "pc_death_causes": [{"cause": k, "count": v} for k, v in self.pc_death_causes],
            "headline": None if self.headline is None else self.headline.to_dict(),
            "round_limited": self.round_limited.to_dict(),
            "ended_by_retreat": self.ended_by_retreat.to_dict(),
            "failures": [{"index": f.index, "seed": f.seed, "error": f.error} for f in self.failures],
        }
        if timing:
            out["timing"] = self.timing
        return out


def _median(sorted_values: Sequence[int]) -> float:
    n = len(sorted_values)
    if n == 0:
        return 0.0
    mid = n // 2
    return float(sorted_values[mid]) if n % 2 else (sorted_values[mid - 1] + sorted_values[mid]) / 2


def aggregate(results: Iterable[FightResult], *, top_causes: int = 10) -> Summary:
    """Fold fight results (in run order) into a :class:`Summary`. Failed fights are listed in ``failures`` and
    left out of every figure; if every fight failed, :class:`SimulationFailed` says why."""
    everything = sorted(results, key=lambda r: r.index)
    failures = tuple(f for f in everything if f.error is not None)
    fights = [f for f in everything if f.error is None]
    n = len(fights)
    if n == 0:
        if failures:
            raise SimulationFailed(failures)
        raise ValueError("no fights to aggregate")
    first = fights[0]
    order: list[str] = []
    members: dict[str, list[str]] = {}
    pcs: dict[str, bool] = {}
    for c in first.combatants:
        if c.side not in members:
            order.append(c.side)
            members[c.side] = []
            pcs[c.side] = False
        members[c.side].append(c.id)
        pcs[c.side] = pcs[c.side] or c.pc
    wins: Counter[str] = Counter()
    conceded: Counter[str] = Counter()
    any_ko: Counter[str] = Counter()
    any_dead: Counter[str] = Counter()
    any_worst: Counter[str] = Counter()
    draws = 0
    rounds: list[int] = []
    ko: Counter[str] = Counter()
    died: Counter[str] = Counter()
    dying: Counter[str] = Counter()
    sums: dict[str, list[int]] = {c.id: [0, 0, 0, 0] for c in first.combatants}
    info = {c.id: c for c in first.combatants}
    causes: Counter[str] = Counter()
    for f in fights:
        if f.winner is None:
            draws += 1
        else:
            wins[f.winner] += 1
        if f.conceded is not None:
            conceded[f.conceded] += 1
        rounds.append(f.rounds)
        side_ko: set[str] = set()
        side_dead: set[str] = set()
        side_worst: set[str] = set()
        for c in f.combatants:
            if c.id not in sums:  # a combatant that joined during this fight only
                sums[c.id] = [0, 0, 0, 0]
                info[c.id] = c
            if c.knocked_out:
                ko[c.id] += 1
                side_ko.add(c.side)
            if c.died:
                died[c.id] += 1
                side_dead.add(c.side)
                if c.pc:
                    causes[c.death_cause or "unknown"] += 1
            if c.dying_at_end:
                dying[c.id] += 1
            if c.died or (c.dying_at_end and f.winner != c.side):
                side_worst.add(c.side)
            s = sums[c.id]
            s[0] += c.rp_spent
            s[1] += c.rp_lost
            s[2] += c.damage_dealt
            s[3] += c.damage_taken
        for side in side_ko:
            any_ko[side] += 1
        for side in side_dead:
            any_dead[side] += 1
        for side in side_worst:
            any_worst[side] += 1
    sides = tuple(
        SideSummary(
            side=s,
            members=tuple(members[s]),
            pcs=pcs[s],
            win=Proportion(wins[s], n),
            any_knocked_out=Proportion(any_ko[s], n),
            any_died=Proportion(any_dead[s], n),
            any_died_or_left=Proportion(any_worst[s], n),
            conceded=Proportion(conceded[s], n),
        )
        for s in order
    )
    combatants = tuple(
        CombatantSummary(
            id=cid,
            side=info[cid].side,
            pc=info[cid].pc,
            knocked_out=Proportion(ko[cid], n),
            died=Proportion(died[cid], n),
            dying_at_end=Proportion(dying[cid], n),
            rp_spent=s[0] / n,
            rp_lost=s[1] / n,
            damage_dealt=s[2] / n,
            damage_taken=s[3] / n,
        )
        for cid, s in sums.items()
    )
    ordered = sorted(rounds)
    hist = Counter(rounds)
    round_stats = RoundStats(
        histogram=dict(sorted(hist.items())),
        mean=sum(rounds) / n,
        median=_median(ordered),
        p90=ordered[min(n - 1, math.ceil(0.9 * n) - 1)],
        max=ordered[-1],
    )
    top = tuple(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))[:top_causes])
    limited = sum(1 for f in fights if f.round_limited)
    retreats = sum(1 for f in fights if f.conceded is not None)
    return Summary(n, sides, Proportion(draws, n), round_stats, combatants, top, Proportion(limited, n), failures,
                   headline(fights), Proportion(retreats, n))  # fmt: skip


class SimulationFailed(SftError):
    """Every fight of a simulation failed: the first failure's seed, index and error."""

    def __init__(self, failures: Sequence[FightResult]) -> None:
        first = failures[0]
        last = (first.error or "").strip().splitlines()[-1:] or ["?"]
        super().__init__(
            f"all {len(failures)} fights failed; the first (index {first.index}, seed {first.seed}): {last[0]}"
        )
        self.failures = tuple(failures)
