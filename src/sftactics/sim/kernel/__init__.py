"""The compiled fight kernel (numba): the engine's fight with the simple or the tactical policy, hundreds to
thousands of times per second per core.

``model`` compiles an encounter into arrays with the rules modules (``tables``: the tactical policy's damage
tables), ``geo`` holds the grid's tables and a cover cache; a fight's books are ``books``, ``injury``, ``attacks``,
``movement``, ``grenades`` and ``flow``, its state ``fight``; ``simple`` plays the simple policy, ``tactics`` (with
``tacturn``, ``tacplaces`` and ``tacsquares``) the tactical one; ``loop`` runs the rounds, ``run`` turns fights
into the simulation's results. See docs/simulation.md.

numba caches compiled code on disk and checks each function only against its own source file, but the kernel's
functions call each other across their modules: after an edit (or an upgrade) of one file, another's cached
code would still hold the old callee. The locators registered here give the kernel's functions
one stamp, a digest of the source files of this package, so a change anywhere recompiles everything (but in
the files that hold no njit code and feed none: :data:`NOT_COMPILED`).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from numba.core import caching

_HERE = Path(__file__).resolve().parent
_DIGEST: list[bytes] = []
#: Files of the package with no njit code that no njit code reads (Python around the kernel: playing batches,
#: worker processes, the tactical policy's refusals for big creatures): editing them leaves the compiled code as
#: it is.
NOT_COMPILED = frozenset({"run.py", "pool.py", "bigrefusals.py"})


def source_digest() -> bytes:
    """A digest of the kernel's source files (computed once per process), but :data:`NOT_COMPILED`."""
    if not _DIGEST:
        h = hashlib.sha256()
        for f in sorted(_HERE.glob("*.py")):
            if f.name in NOT_COMPILED:
                continue
            h.update(f.name.encode())
            h.update(f.read_bytes())
        _DIGEST.append(h.digest())
    return _DIGEST[0]


def _ours(py_file: str) -> bool:
    return Path(os.path.abspath(py_file)).parent == _HERE


def _locator(base: Any) -> Any:
    class KernelLocator(base):  # type: ignore[misc]
        """``base`` for the kernel's files only, with the package digest as the source stamp."""

        def get_source_stamp(self) -> Any:
            return source_digest()

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not _ours(py_file):
                return None
            return super().from_function(py_func, py_file)

    KernelLocator.__name__ = f"Kernel{base.__name__.lstrip('_')}"
    return KernelLocator


def _register() -> None:
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    if impl is None or any(getattr(k, "_sftactics", False) for k in impl._locator_classes):
        return
    found = []
    for name in ("InTreeCacheLocator", "_InTreeCacheLocator", "UserWideCacheLocator", "_UserWideCacheLocator"):
        base = getattr(caching, name, None)
        if base is not None:
            loc = _locator(base)
            loc._sftactics = True
            found.append(loc)
    impl._locator_classes[0:0] = found


_register()
