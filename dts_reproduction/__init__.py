"""The dts-reproduction library under one name, so that installing it claims no generic top-level name:
``dts_reproduction.core`` (the njit kernels), ``dts_reproduction.algorithms`` (the algorithms and their live
``Policy`` classes), ``dts_reproduction.data`` (the preference matrices) and ``dts_reproduction.reproduce``
(the harness, figures and claims); docs/install.md says what an install holds.

An installed wheel holds the four packages inside this folder.  In a clone they are the folders beside it (the
repository's layout), so there this package's path also covers the clone's root.
"""

from pathlib import Path

_HERE = Path(__file__).resolve().parent

if not (_HERE / "core").is_dir():
    __path__.append(str(_HERE.parent))
