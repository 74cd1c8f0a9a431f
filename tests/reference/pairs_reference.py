"""The canonical order of unordered pairs (``core.pairs``): (1,0), (2,0), (2,1), (3,0), ..."""


def pair_order(K):
    """(1,0), (2,0), (2,1), (3,0), ... written out."""
    return [(i, j) for i in range(1, K) for j in range(i)]
