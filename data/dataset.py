"""The ``Dataset`` record: a validated preference matrix plus its labels and provenance."""

import warnings
from dataclasses import dataclass

import numpy as np

from dts_reproduction.core import copeland

from .validation import validate_preference_matrix


@dataclass(frozen=True, eq=False)
class Dataset:
    """A K-armed dueling-bandit instance.

    Fields:
      name: dataset name (file stem, or the generated dataset's name).
      P: K x K float64 preference matrix, read-only; P[i, j] = P(arm i beats arm j).
      labels: original arm labels, one string per row (1-based arm numbers,
        MSLR ranker ids or sushi item names).
      source: where the matrix came from (a file path, or the generator call).
      renormalised: pairs (i, j), i < j, that validation divided by their sum.
      header: the file's ``#`` lines, stripped of surrounding blanks (empty for generated data).

    Build it with ``load_dataset`` or ``dataset_from_matrix``, which validate P; the
    constructor itself only checks the name, the shape and the number of labels.

    The Copeland scores and winners are ``core.copeland``'s (strict p_ij > 0.5: an exact 0.5 pair counts for
    neither arm).
    """

    name: str
    P: np.ndarray
    labels: tuple
    source: str
    renormalised: tuple = ()
    header: tuple = ()

    def __post_init__(self):
        """Store P as a read-only float64 copy and labels as strings; check the name (a non-empty string: it
        keys the run's random streams, ``reproduce.harness.seeds``), the shape and the labels (a sequence of K
        names, not one string)."""
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"dataset name must be a non-empty string, got {self.name!r}")
        P = np.array(self.P, dtype=np.float64)
        if P.ndim != 2 or P.shape[0] != P.shape[1]:
            raise ValueError(f"dataset {self.name!r}: P is not square: shape {P.shape}")
        P.setflags(write=False)
        if isinstance(self.labels, (str, bytes)):
            raise ValueError(f"dataset {self.name!r}: labels must be a sequence of K names, got the string "
                             f"{self.labels!r}")
        labels = tuple(str(x) for x in self.labels)
        if len(labels) != P.shape[0]:
            raise ValueError(f"dataset {self.name!r}: {len(labels)} labels for K = {P.shape[0]} arms")
        object.__setattr__(self, "P", P)
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "renormalised", tuple((int(i), int(j)) for i, j in self.renormalised))
        object.__setattr__(self, "header", tuple(self.header))

    @property
    def K(self):
        """Number of arms."""
        return self.P.shape[0]

    @property
    def copeland_scores(self):
        """int64 array: score_i = #{j != i : p_ij > 0.5} (``core.copeland.copeland_scores``)."""
        return copeland.copeland_scores(self.P)

    @property
    def normalized_copeland(self):
        """float array: copeland_scores / (K - 1), the zeta_i of the paper."""
        return self.copeland_scores / (self.K - 1)

    @property
    def winners(self):
        """int array of the Copeland winners (indices with the maximal score), ascending
        (``core.copeland.copeland_winners``)."""
        return copeland.copeland_winners(self.P)

    @property
    def has_condorcet_winner(self):
        """True iff some arm beats every other arm (score K - 1)."""
        return self.condorcet_winner is not None

    @property
    def condorcet_winner(self):
        """Index of the Condorcet winner, or None if there is none (``core.copeland.condorcet_winner``)."""
        winner = int(copeland.condorcet_winner(self.P))
        return winner if winner >= 0 else None

    @property
    def zeta_star(self):
        """Largest normalised Copeland score, max_i zeta_i (1.0 iff a Condorcet winner exists)."""
        return float(self.normalized_copeland.max())


_WARNED = set()  # (name, matrix bytes, tol) already warned about by dataset_from_matrix


def dataset_from_matrix(P, name, labels=None, source="in-memory matrix", header=(), tol=1e-3):
    """Validate ``P`` (see ``validate_preference_matrix``) and wrap it in a ``Dataset``.

    ``labels`` defaults to the 1-based arm numbers "1".."K".  Pairs renormalised
    within ``tol`` are recorded in ``Dataset.renormalised`` and reported with
    ``warnings.warn``, once per process for one matrix under one name (a run loads its dataset several
    times).  Raises ValueError for an invalid matrix or a wrong number of labels.
    """
    P_fixed, renormalised = validate_preference_matrix(P, tol=tol)
    if labels is None:
        labels = [str(k + 1) for k in range(P_fixed.shape[0])]
    seen = (name, P_fixed.tobytes(), tol)
    if renormalised and seen not in _WARNED:
        _WARNED.add(seen)
        pairs = ", ".join(f"({i},{j})" for i, j in renormalised)
        warnings.warn(
            f"dataset {name!r}: renormalised {len(renormalised)} pair(s) whose sum was within {tol!r} of 1: {pairs}",
            UserWarning,
            stacklevel=2,
        )
    return Dataset(name=name, P=P_fixed, labels=labels, source=source, renormalised=renormalised, header=header)
