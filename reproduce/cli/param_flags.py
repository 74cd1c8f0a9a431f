"""The ``--param ALG.NAME=VALUE`` flag of ``reproduce/run.py``, read into each ``--algorithms`` entry's parameters.
Flag parsing (its text in, its errors naming the flags), so the command line's; each value is stored in the type of
its parameter's default by the library's rule (``reproduce.studies.custom_runs.canonical_value``)."""

from dts_reproduction.reproduce.studies.custom_runs import canonical_value


def _parse_value(text: str):
    """``text`` as an int, a float, a bool ("True"/"False", e.g. btm.faithful_bug=False) or else the text."""
    if text in ("True", "False"):
        return text == "True"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_params(items, algorithms) -> dict:
    """``["dts.alpha=0.6", ...]`` -> {"dts": {"alpha": 0.6}}, each value in its canonical type
    (``canonical_value``); ValueError on a malformed item or an algorithm named twice (its two curves could
    only be the same runs)."""
    twice = sorted({name for name in algorithms if algorithms.count(name) > 1})
    if twice:
        raise ValueError(f"--algorithms names {twice[0]!r} twice")
    params = {name: {} for name in algorithms}
    for item in items or ():
        key, sep, value = item.partition("=")
        alg, dot, name = key.rpartition(".")  # a plug-in reference holds dots; a parameter's name holds none
        if not sep or not dot or not name:
            raise ValueError(f"--param must look like ALGORITHM.NAME=VALUE, got {item!r}")
        if alg not in params:
            raise ValueError(f"--param {item!r} names algorithm {alg!r}, which is not in --algorithms")
        if name in params[alg]:
            raise ValueError(f"--param {key} is given twice")
        params[alg][name] = canonical_value(alg, name, _parse_value(value))
    return params
