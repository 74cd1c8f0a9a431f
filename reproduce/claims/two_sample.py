"""Two samples compared, and many comparisons corrected together: Welch's test of equal means and Holm's adjusted
p-values, as the agreement studies use them (``studies.authors_agreement``, ``studies.successors_agreement``)."""

import numpy as np
from scipy import stats


def welch_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided p-value of Welch's t test of equal means (1.0 if both samples are constant and equal)."""
    if np.ptp(a) == 0 and np.ptp(b) == 0:
        return 1.0 if a[0] == b[0] else 0.0
    return float(stats.ttest_ind(a, b, equal_var=False).pvalue)


def holm_adjusted(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values: p_(i) * (m - i + 1), made monotone, capped at 1 (in input order)."""
    p_values = np.asarray(p_values, np.float64)
    order = np.argsort(p_values, kind="stable")
    scaled = p_values[order] * (p_values.size - np.arange(p_values.size))
    adjusted = np.empty_like(p_values)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return adjusted
