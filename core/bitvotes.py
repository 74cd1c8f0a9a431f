"""Bit-sliced Bernoulli votes: many indicators ``1(U_j < q_j)`` from a few uniform words.

D-TS's first phase needs, for each row i of the candidate set C, the count of the votes
``1(theta_ij > 1/2)``, each a Bernoulli draw with the cached probability ``q_ij = P(theta_ij > 1/2)``
(``core.thompson``).  Drawing them one uniform each costs one random number per pair.  Here a row is
cut into words of ``LANES`` = 53 lanes (the bits of one ``Generator.random()`` draw: ``random()`` is
``k / 2**53`` for a uniform 53-bit integer k, so ``floor(random() * 2**53)`` is 53 independent fair
bits), and the uniform ``U_j`` of every lane is generated one binary digit at a time, all lanes of a
word at once: with ``R`` the next random word and ``Q_b`` the b-th binary digit of every ``q_j``
(cached as bit planes), a lane is decided at the first digit where ``R`` and ``Q_b`` differ, with
vote 1 iff there ``R`` has a 0 and ``q`` a 1 (that is, ``U < q``).  Each lane is decided with
probability 1/2 per digit, so a word of 53 lanes needs about log2(53) + 1.3 ~ 7 random words instead
of 53.  After ``DEPTH`` digits the (probability 2**-16) undecided lanes finish with one uniform each
against the rest of q's expansion, ``frac(q 2**DEPTH)``.  Each lane is 1 with probability exactly q for
every double q >= 2**-17 (a multiple of 2**-69; smaller q are off by less than 2**-69, against 2**-53
for ``random() < q``), the lanes are independent, and the votes of a row are popcounts.
"""

import numpy as np
from numba import njit

LANES = 53
DEPTH = 16
SCALE = float(1 << DEPTH)
WORD_SCALE = float(1 << LANES)


def words_for(K: int) -> int:
    """Number of LANES-bit words of a row of K lanes."""
    return (K + LANES - 1) // LANES


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a non-negative int64 below 2**63 (SWAR, no multiplication)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True, inline="always")
def _digits(prob):
    """The first DEPTH binary digits of ``prob`` in [0, 1] as an integer (all ones for prob = 1)."""
    value = int(prob * SCALE)
    if value > (1 << DEPTH) - 1:
        value = (1 << DEPTH) - 1
    return value


@njit(cache=True)
def set_lane(planes, q, i, j):
    """Write the DEPTH digits of ``q[i, j]`` into lane j of row i of ``planes`` (int64 (K, W, DEPTH))."""
    word = j // LANES
    bit = np.int64(1) << (j % LANES)
    digits = _digits(q[i, j])
    for b in range(DEPTH):
        if (digits >> (DEPTH - 1 - b)) & 1:
            planes[i, word, b] |= bit
        else:
            planes[i, word, b] &= ~bit


@njit(cache=True)
def fill_planes(q, planes):
    """Bit planes of every off-diagonal ``q[i, j]`` (the diagonal lanes are cleared).  Returns planes."""
    K = q.shape[0]
    planes[:] = 0
    for i in range(K):
        for j in range(K):
            if j != i:
                set_lane(planes, q, i, j)
    return planes


@njit(cache=True)
def refresh_planes(planes, q, i, j):
    """After ``q[i, j]`` and ``q[j, i]`` changed: their lanes (no-op if i == j)."""
    if i == j:
        return
    set_lane(planes, q, i, j)
    set_lane(planes, q, j, i)


@njit(cache=True, inline="always")
def random_word(rng):
    """LANES independent fair bits (the 53-bit integer behind one ``rng.random()``)."""
    return np.int64(rng.random() * WORD_SCALE)


@njit(cache=True)
def draw_word(rng, planes, q, i, word, lanes):
    """Independent votes ``1(U_j < q[i, j])`` for the lanes set in ``lanes`` (an int64 mask) of word
    ``word`` of row i; the other bits of the result are 0."""
    result = np.int64(0)
    undecided = lanes
    for b in range(DEPTH):
        if undecided == 0:
            return result
        digit = planes[i, word, b]
        differ = (random_word(rng) ^ digit) & undecided
        result |= differ & digit
        undecided &= ~differ
    # Lanes whose first DEPTH digits of U equal those of q: U < q with probability frac(q 2**DEPTH).
    while undecided != 0:
        low = undecided & -undecided
        lane = 0
        while (np.int64(1) << lane) != low:
            lane += 1
        j = word * LANES + lane
        rest = q[i, j] * SCALE - _digits(q[i, j])
        if rng.random() < rest:
            result |= low
        undecided &= ~low
    return result


COUNTER_PLANES = 16  # bit planes of the mirrored-vote counters: counts up to 2**16 - 1 arms


@njit(cache=True, inline="always")
def _add_to_counters(counters, word, x):
    """Add 1 to the counter of every lane set in x (word ``word``): a ripple-carry add on bit planes."""
    carry = x
    for b in range(COUNTER_PLANES):
        if carry == 0:
            return
        plane = counters[b, word]
        counters[b, word] = plane ^ carry
        carry = plane & carry


@njit(cache=True, inline="always")
def _counter(counters, lane):
    """The counter of one lane."""
    word = lane // LANES
    bit = lane % LANES
    value = 0
    for b in range(COUNTER_PLANES):
        value |= ((counters[b, word] >> bit) & 1) << b
    return value


@njit(cache=True)
def _draw_row(rng, planes, q, in_c, bits, done_words, c_words, counters, i):
    """Draw the lanes of row i not yet drawn (not the diagonal, not the rows of C drawn before), add
    the mirrored votes they give to the later rows of C to ``counters``, mark i done; return the
    number of votes of row i among the lanes it drew."""
    K = q.shape[0]
    W = done_words.shape[0]
    word_i = i // LANES
    bit_i = np.int64(1) << (i % LANES)
    count = 0
    for word in range(W):
        width = min(LANES, K - word * LANES)
        lanes = ((np.int64(1) << width) - 1) & ~done_words[word]
        if word == word_i:
            lanes &= ~bit_i
        row = draw_word(rng, planes, q, i, word, lanes)
        bits[i, word] = row
        count += popcount(row)
        # theta_ij <= 1/2 for a later row j of C is theta_ji > 1/2: a vote of row j.
        mirrored = ~row & lanes & c_words[word]
        if mirrored != 0:
            _add_to_counters(counters, word, mirrored)
    done_words[word_i] |= bit_i
    return count


@njit(cache=True)
def candidate_votes(rng, planes, q, in_c, bits, done_words, votes, first, c_words, counters):
    """Votes of every row i of C (``in_c``): ``votes[i] = #{j != i : theta_ij > 1/2}``, with the
    indicator of each pair of C drawn once (by the row drawn first) and mirrored
    (``1(theta_ji > 1/2) = 1 - 1(theta_ij > 1/2)``, the tie having probability zero), every other pair
    drawn independently with probability q[i, j] -- the law of Algorithm 1 lines 7-10 restricted to
    the rows of C.  Rows are drawn in increasing order, except ``first`` (>= 0: a row of C whose lanes
    are all already in ``bits[first]``, drawn by the caller with their own law), taken before them.
    ``bits`` (int64 (K, W)) receives the lanes each row drew (see ``unpack_rows``); the mirrored votes
    are counted on bit planes (``counters``, int64 (COUNTER_PLANES, W)), not bit by bit.
    done_words, c_words: int64 (W,) scratch."""
    K = q.shape[0]
    W = done_words.shape[0]
    done_words[:] = 0
    c_words[:] = 0
    counters[:] = 0
    for i in range(K):
        if in_c[i]:
            c_words[i // LANES] |= np.int64(1) << (i % LANES)
    if first >= 0:
        count = 0
        for word in range(W):
            row = bits[first, word]
            count += popcount(row)
            mirrored = ~row & c_words[word]
            if word == first // LANES:
                mirrored &= ~(np.int64(1) << (first % LANES))
            if mirrored != 0:
                _add_to_counters(counters, word, mirrored)
        votes[first] = count
        done_words[first // LANES] |= np.int64(1) << (first % LANES)
    for i in range(K):
        if in_c[i] and i != first:
            votes[i] = _draw_row(rng, planes, q, in_c, bits, done_words, c_words, counters, i) + _counter(counters, i)
    return votes


@njit(cache=True)
def unpack_rows(bits, in_c, first, above):
    """``above[i, j]`` for the rows i of C after ``candidate_votes``: the lane row i drew, or the
    mirror of the lane of row j if row j drew the pair (rows of C drawn in increasing order, ``first``
    before all); the diagonal is False."""
    K = above.shape[0]
    for i in range(K):
        if not in_c[i]:
            continue
        for j in range(K):
            if j == i:
                above[i, j] = False
            elif in_c[j] and (j == first or (j < i and i != first)):
                above[i, j] = (bits[j, i // LANES] >> (i % LANES)) & 1 == 0
            else:
                above[i, j] = (bits[i, j // LANES] >> (j % LANES)) & 1 == 1
