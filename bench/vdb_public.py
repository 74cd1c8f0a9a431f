"""One cell of stephen-huan/dueling-bandit's Versatile-DB, run by ``bench/successors_fidelity.py --stephen-huan``
under an interpreter that has JAX and equinox (their code's needs, not this project's): their ``vdb`` (one shared
Tsallis-INF learner, both candidates' estimates halved), unedited, on a matrix given as a .npy file, each run with
its own seed; prints one JSON row per run with the final Copeland regret R(T) (this project's definition, from the
pair counts their duel is made to record).  Imports nothing of this project's, so that it runs beside their package.

Not a command line of the project (it cannot import the project, whose interpreter it does not run under):
successors_fidelity.py calls it as PY bench/vdb_public.py THEIR_CHECKOUT MATRIX.npy {iw,rv} RUNS T SEED.
"""

import json
import sys

import numpy as np


def run_cell(argv) -> None:
    """Run the cell of ``argv`` (module doc) and print its rows."""
    checkout, matrix_file, estimate, runs, horizon, seed = argv
    sys.path.insert(0, checkout)
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    from bandit.algorithms import vdb
    from jax import random

    def duel(state, arm1, arm2):
        """Their Duel type: whether arm1 beats arm2, drawn from the matrix, the pair counted."""
        key, subkey = random.split(state["key"])
        return random.bernoulli(subkey, state["P"][arm1, arm2]), {
            "key": key, "P": state["P"], "counts": state["counts"].at[arm1, arm2].add(1)}

    P = np.load(matrix_file)
    K, runs, horizon, seed = len(P), int(runs), int(horizon), int(seed)
    score = (P > 0.5).sum(axis=1) / float(K - 1)
    for run in range(runs):
        keys = random.split(random.key(seed + run))
        state = {"key": keys[1], "P": jnp.asarray(P), "counts": jnp.zeros((K, K), jnp.int64)}
        _, state = vdb(keys[0], K, duel, state, horizon, estimate == "rv")
        counts = np.asarray(state["counts"])
        if counts.sum() != horizon:
            raise RuntimeError(f"{counts.sum()} duels in {horizon} slots")
        played = counts.sum(axis=1) + counts.sum(axis=0)
        print(json.dumps({"run": run, "seed": seed + run,
                          "final": round(float(horizon * score.max() - (played * score).sum() / 2), 6)}), flush=True)


if __name__ == "__main__":
    run_cell(sys.argv[1:])
