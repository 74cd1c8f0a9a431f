"""The library of the checks that compare stored runs with an outside reference: the authors' own code
(``fidelity``).  Their entry points are the scripts at the top of ``reproduce/``."""
