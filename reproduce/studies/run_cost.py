"""What one run costs, measured: two probe runs of a line on its own matrix (the first ``probe / 10`` slots and
the first ``probe`` slots, same seed, so the second extends the first) and the extrapolation of their process
CPU seconds to a run of T slots.  Used by ``bench/paper_cost.py`` for the paper's figures and, through the
probe table it writes (bench/large_scale_probes.csv), by the plan of the large-scale study
(``reproduce.studies.large_scale_study.large_scale_plan``)."""

import time

from dts_reproduction.reproduce.harness.runner import run_one


def probe_seconds(dataset, spec, params: dict, probe: int, delay: int = 1) -> tuple[float, float]:
    """(CPU seconds of run 0 over ``probe // 10`` slots, over ``probe`` slots), seed 0, after a 2-slot run that
    compiles the kernels."""
    run_one(dataset, spec, params, 2, 0, 0, delay)
    seconds = []
    for slots in (max(probe // 10, 1), probe):
        began = time.process_time()
        run_one(dataset, spec, params, slots, 0, 0, delay)
        seconds.append(time.process_time() - began)
    return seconds[0], seconds[1]


def extrapolated_seconds(tenth: float, whole: float, probe: int, horizon: int) -> float:
    """CPU seconds of a run of ``horizon`` slots from the probe times: ``whole`` plus, beyond the probe, the cost
    per slot of its last 90 % (``(whole - tenth) / (probe - probe // 10)``).  Most algorithms' slots get cheaper
    with t (the fast paths most of all, as self-comparisons take over), so this is mostly an upper estimate."""
    per_slot = max(whole - tenth, 0.0) / max(probe - probe // 10, 1)
    return whole + max(horizon - probe, 0) * per_slot
