"""Compiled (numba) building blocks for fast Monte Carlo fights."""
