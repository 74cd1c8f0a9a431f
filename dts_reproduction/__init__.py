"""The dts-reproduction library under one name, so that installing it claims no generic top-level name:
``dts_reproduction.core`` (the njit kernels), ``dts_reproduction.algorithms`` (the algorithms and their live
``Policy`` classes), ``dts_reproduction.data`` (the preference matrices) and ``dts_reproduction.reproduce``
(the harness, figures and claims); docs/install.md says what an install holds.

The four packages are the clone's top-level folders; this folder links to each (``core -> ../core``, ...), so
nothing is assembled at import time and an installed wheel holds the same tree as files (docs/design.md, "One
package, the user's folders").
"""
