"""Preference matrices of the D-TS reproduction (Wu & Liu, NIPS 2016).

Public API:
  load_dataset(name_or_path, tol=1e-3) -> Dataset
  dataset_names() -> list[str]
  dataset_from_matrix(P, name, labels=None, source=..., header=(), tol=1e-3) -> Dataset
  validate_preference_matrix(P, tol=1e-3) -> (P_fixed, renormalised)
  make_copeland_500(K=500, p_winner_cycle=0.55, p_winner_vs_rest=0.6, p_rest=0.6, seed=None) -> ndarray
  read_matrix_file(path) -> (rows, labels, header)
See data/README.md for the datasets and their provenance.
"""

from .dataset import Dataset, dataset_from_matrix
from .loader import dataset_names, load_dataset, read_matrix_file
from .synthetic import make_copeland_500
from .validation import validate_preference_matrix

__all__ = [
    "Dataset",
    "dataset_from_matrix",
    "dataset_names",
    "load_dataset",
    "make_copeland_500",
    "read_matrix_file",
    "validate_preference_matrix",
]
