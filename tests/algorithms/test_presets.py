"""Named parameter sets (``AlgorithmSpec.presets``, docs/algorithms.md#presets): their values, that a preset
line is the very line of its parameters written out (same store key and folder), run.py's NAME:PRESET, and
the errors."""

import dataclasses

import pytest

from dts_reproduction.algorithms import get_algorithm
from dts_reproduction.reproduce.cli.param_flags import parse_params
from dts_reproduction.reproduce.harness.runner import Line, line_key
from dts_reproduction.reproduce.studies.custom_runs import algorithm_curve
from dts_reproduction.reproduce.studies.experiment import Curve

BEST = {
    "dts": {"alpha": 0.8**7},
    "merge_dts": {"alpha": 0.8**6, "C": 4e5, "batch_size": 16},
    "merge_rucb": {"alpha": 0.8**6, "C": 4e5, "batch_size": 8},
}


def test_the_authors_tuned_settings():
    """demo.py's 'DTSBEST', 'MergeDTSBest' and 'MergeRUCBBEST'; no other algorithm has a preset."""
    for name, params in BEST.items():
        assert dict(get_algorithm(name).presets) == {"best": params}
    assert not get_algorithm("dts_plus").presets and not get_algorithm("rucb").presets


@pytest.mark.filterwarnings("ignore:alpha = 0.2097")  # D-TS's Theorem 1 warning: the tuned alpha is below 1/2
@pytest.mark.parametrize("name", sorted(BEST))
def test_a_preset_line_is_the_explicit_line(name):
    """Same key (hence folder and stored runs) as the line with the parameters written out in another order,
    a key other than the default line's; the state is made with the preset's values."""
    spec = get_algorithm(name)
    preset = Line("mslr136_informational", name, 1000, 2, params=spec.preset_params("best"))
    explicit = Line("mslr136_informational", name, 1000, 2, params=tuple(reversed(BEST[name].items())))
    assert line_key(preset) == line_key(explicit) != line_key(Line("mslr136_informational", name, 1000, 2))
    state = spec.make_state(136, None, dict(spec.preset_params("best")))
    assert state.alpha == BEST[name]["alpha"]


def test_run_reads_name_colon_preset():
    """--algorithms merge_dts:best: the preset's parameters, --param overrides on top, tag "MergeDTS (best)"."""
    curve = algorithm_curve("merge_dts:best", {}, True)
    assert curve.algorithm == "merge_dts" and dict(curve.params) == BEST["merge_dts"]
    assert curve.tag == "MergeDTS (best)"
    curve = algorithm_curve("merge_dts:best", {"batch_size": 8, "theta": "antisymmetric"}, False)
    assert dict(curve.params) == {**BEST["merge_dts"], "batch_size": 8, "theta": "antisymmetric"}
    assert not curve.shuffle
    assert algorithm_curve("dts", {"alpha": 0.6}, True) == Curve("dts", (("alpha", 0.6),))
    assert parse_params(["merge_dts:best.theta=antisymmetric"], ["merge_dts", "merge_dts:best"]) == {
        "merge_dts": {}, "merge_dts:best": {"theta": "antisymmetric"}}


def test_unknown_presets_and_bad_presets_are_refused():
    with pytest.raises(ValueError, match=r"unknown preset 'fast' for algorithm 'merge_rucb' \(known: best\)"):
        get_algorithm("merge_rucb").preset_params("fast")
    with pytest.raises(ValueError, match=r"unknown preset 'best' for algorithm 'rucb' \(known: none\)"):
        algorithm_curve("rucb:best", {}, True)
    with pytest.raises(ValueError, match=r"unknown parameter 'gamma' for algorithm 'dts'"):
        dataclasses.replace(get_algorithm("dts"), presets={"bad": {"gamma": 1.0}})
