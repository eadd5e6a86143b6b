"""The kernel's modules import in any order: each one imported first, in a fresh set of kernel modules, loads
(the tactical policy's modules call each other's functions through module attributes, so no module needs
another's names while that one is still loading)."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import importlib, pkgutil, sys
import sftactics.sim.kernel as K
names = sorted(m.name for m in pkgutil.iter_modules(K.__path__))
failed = []
for name in names:
    for key in [k for k in sys.modules if k.startswith("sftactics.sim.kernel.")]:
        del sys.modules[key]
    for attr in names:
        if attr in vars(K):
            delattr(K, attr)
    try:
        importlib.import_module("sftactics.sim.kernel." + name)
    except ImportError as e:
        failed.append(f"{name}: {e}")
print(len(names))
print("\\n".join(failed))
"""


def test_every_kernel_module_can_be_imported_first() -> None:
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True, timeout=300)
    count, *failed = out.stdout.strip().splitlines()
    assert int(count) > 30
    assert [f for f in failed if f] == []
