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

A lane whose q ends within the first DEPTH digits (q a multiple of 2**-DEPTH below 1, last 1 digit at
b: e.g. q = 1/2 for a pair with as many wins as losses, ``core.thompson``) is decided at digit b at the
latest: if U has matched q's digits up to there, U > q (U = q has probability zero), so the vote is 0.
The lanes ending at each digit are cached as DEPTH more planes, so a word whose lanes all have q = 1/2
-- every pair not compared yet, most of them while the first phase is at its most expensive (early, at
large K) -- costs one random word instead of about seven.

D-TS needs only the most-voted rows (lines 8-11), so ``candidate_votes`` can stop a row as soon as it
cannot reach the most votes of a row completed before it (exact by deferred decisions; see there).  A
pair revealed in one row is mirrored into the other, so each row cannot be cut by less than its
losses: with C = every arm and a best row at M votes, at least (K - M) losses must be shown for every
other row, one pair each, so pruning saves little while the votes are spread (early) and most once
one row leads by far.
"""

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

LANES = 53
DEPTH = 16
PLANES = 2 * DEPTH  # per word: the DEPTH digit planes, then the DEPTH end planes (lanes whose q ends there)
SCALE = float(1 << DEPTH)
WORD_SCALE = float(1 << LANES)


def words_for(K: int) -> int:
    """Number of LANES-bit words of a row of K lanes."""
    return (K + LANES - 1) // LANES


def planes_shape(K: int) -> tuple:
    """Shape of the int64 bit planes of a K x K matrix of vote probabilities (``fill_planes``)."""
    return (K, words_for(K), PLANES)


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count of an int64 (one instruction where the CPU has one)."""

    def codegen(context, builder, signature, args):
        """Emit one LLVM ctpop of the argument."""
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of an int64 (a non-negative one below 2**63 here)."""
    return _ctpop(x)


@njit(cache=True, inline="always")
def _digits(prob):
    """The first DEPTH binary digits of ``prob`` in [0, 1] as an integer (all ones for prob = 1)."""
    value = int(prob * SCALE)
    if value > (1 << DEPTH) - 1:
        value = (1 << DEPTH) - 1
    return value


@njit(cache=True, inline="always")
def _end_digit(prob, digits):
    """The digit after which a lane with probability ``prob`` (first DEPTH digits ``digits``) is decided
    0 if still undecided: its last 1 digit if prob ends within DEPTH digits (0 for prob = 0), else -1."""
    if prob >= 1.0 or prob * SCALE != digits:
        return -1
    if digits == 0:
        return 0
    b = DEPTH - 1
    while (digits >> (DEPTH - 1 - b)) & 1 == 0:
        b -= 1
    return b


@njit(cache=True)
def set_lane(planes, q, i, j):
    """Write the DEPTH digits of ``q[i, j]`` and where its expansion ends (``_end_digit``) into lane j
    of row i of ``planes`` (int64 ``planes_shape(K)``)."""
    word = j // LANES
    bit = np.int64(1) << (j % LANES)
    digits = _digits(q[i, j])
    end = _end_digit(q[i, j], digits)
    for b in range(DEPTH):
        if (digits >> (DEPTH - 1 - b)) & 1:
            planes[i, word, b] |= bit
        else:
            planes[i, word, b] &= ~bit
        if b == end:
            planes[i, word, DEPTH + b] |= bit
        else:
            planes[i, word, DEPTH + b] &= ~bit


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
def finish_lanes(rng, q, i, word, undecided):
    """Votes of the lanes of ``undecided`` (word ``word`` of row i) whose first DEPTH digits of U equal
    those of q: U < q with probability frac(q 2**DEPTH), one uniform each (probability 2**-DEPTH a
    lane).  Returns the votes as a mask inside ``undecided``."""
    result = np.int64(0)
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


@njit(cache=True, inline="always")
def draw_digits(rng, planes, i, word, lanes):
    """The first DEPTH digits of independent uniforms U_j against those of q[i, j] for the lanes of
    ``lanes`` (an int64 mask) of word ``word`` of row i: (votes ``1(U_j < q[i, j])`` of the lanes
    decided, lanes still undecided -- to be finished by ``finish_lanes``).  A lane whose q ends at digit
    b and that still matches there is decided 0 (its end plane).  Inlined, and with no call
    of its own, so that the digit loop stays a few nanoseconds a pass (a finishing call in the same
    loop made it half as fast again)."""
    result = np.int64(0)
    undecided = lanes
    b = 0
    while undecided != 0 and b < DEPTH:
        digit = planes[i, word, b]
        differ = (random_word(rng) ^ digit) & undecided
        result |= differ & digit
        undecided &= ~(differ | planes[i, word, DEPTH + b])
        b += 1
    return result, undecided


COUNTER_PLANES = 16  # bit planes of the mirrored-vote counters: counts up to 2**16 - 1 arms
# The counters take their adds in a small accumulator of ACC_PLANES planes per word (a fixed,
# branch-free add), emptied into the COUNTER_PLANES planes every ACC_CAPACITY adds: 4 ripple-carry
# adds for 15 instead of 15 (whose data-dependent length made them ~30 % of the first phase).
ACC_PLANES = 4
ACC_CAPACITY = (1 << ACC_PLANES) - 1
ACC_ADDS = COUNTER_PLANES + ACC_PLANES  # row of the accumulator's number of adds, per word
TALLY_ROWS = ACC_ADDS + 1  # the counter planes, the accumulator's planes, its number of adds
# Rows of the scratch of ``candidate_votes`` before its W rows of revealed pairs: C, undecided lanes,
# rows per word, then the counters (TALLY_ROWS: planes, accumulator, adds).
SCRATCH_ROWS = 3 + TALLY_ROWS


def scratch_rows(K: int) -> int:
    """Rows of the int64 (rows, words_for(K)) scratch of ``candidate_votes`` at K arms."""
    return SCRATCH_ROWS + words_for(K)


@njit(cache=True, inline="always")
def _ripple(tally, word, x, start):
    """Add x shifted left by ``start`` to the lanes' counters of word ``word``: a ripple-carry add on
    the bit planes from plane ``start`` on."""
    carry = x
    for b in range(start, COUNTER_PLANES):
        if carry == 0:
            return
        plane = tally[b, word]
        tally[b, word] = plane ^ carry
        carry = plane & carry


@njit(cache=True, inline="always")
def _add_to_counters(tally, word, x):
    """Add 1 to the counter of every lane set in x (word ``word``): into the word's accumulator (its
    value can reach ACC_CAPACITY, so no carry leaves it), emptied into the planes when full."""
    carry = x
    for b in range(COUNTER_PLANES, COUNTER_PLANES + ACC_PLANES):
        plane = tally[b, word]
        tally[b, word] = plane ^ carry
        carry = plane & carry
    adds = tally[ACC_ADDS, word] + 1
    if adds == ACC_CAPACITY:
        for b in range(ACC_PLANES):
            _ripple(tally, word, tally[COUNTER_PLANES + b, word], b)
            tally[COUNTER_PLANES + b, word] = 0
        adds = 0
    tally[ACC_ADDS, word] = adds


@njit(cache=True, inline="always")
def _counter(tally, lane):
    """The counter of one lane: its planes plus its accumulator."""
    word = lane // LANES
    bit = lane % LANES
    value = 0
    for b in range(COUNTER_PLANES):
        value |= ((tally[b, word] >> bit) & 1) << b
    for b in range(ACC_PLANES):
        value += ((tally[COUNTER_PLANES + b, word] >> bit) & 1) << b
    return value


@njit(cache=True, inline="always")
def _draw_row(rng, planes, q, bits, revealed, reached, c_words, tails, counters, i, bound):
    """Draw the lanes of row i that no earlier row drew (``revealed``), word by word, adding the
    mirrored votes they give to the rows of C to ``counters``; stop before a word once the row cannot
    reach ``bound`` votes (its votes so far plus its pairs not decided yet < bound).  The rare lanes
    left undecided by ``draw_digits`` wait in ``tails`` (int64 (W,) scratch) and are finished at the
    end of the row, before any later row reads them.  Returns (votes of row i, including the mirrored
    votes of the earlier rows, if it drew every word, else -1; number of words drawn).  Inlined into
    ``candidate_votes`` (measured ~15 % faster at K = 500)."""
    K = q.shape[0]
    W = revealed.shape[0]
    word_i = i // LANES
    bit_i = np.int64(1) << (i % LANES)
    undecided = K - 1 - reached[word_i]  # the pairs of row i no earlier row drew
    count = _counter(counters, i)
    pending = np.int64(0)
    drawn = W
    for word in range(W):
        if count + undecided < bound:
            drawn = word
            break
        width = min(LANES, K - word * LANES)
        lanes = ((np.int64(1) << width) - 1) & ~revealed[word_i, word]
        if word == word_i:
            lanes &= ~bit_i
        tails[word] = 0
        if lanes == 0:
            bits[i, word] = 0
            continue
        row, tail = draw_digits(rng, planes, i, word, lanes)
        tails[word] = tail
        pending |= tail
        bits[i, word] = row
        count += popcount(row)
        undecided -= popcount(lanes & ~tail)
        # theta_ij <= 1/2 for a later row j of C is theta_ji > 1/2: a vote of row j.
        mirrored = ~row & lanes & ~tail & c_words[word]
        if mirrored != 0:
            _add_to_counters(counters, word, mirrored)
    if pending != 0:
        for word in range(drawn):
            if tails[word] != 0:
                row = finish_lanes(rng, q, i, word, tails[word])
                bits[i, word] |= row
                count += popcount(row)
                mirrored = ~row & tails[word] & c_words[word]
                if mirrored != 0:
                    _add_to_counters(counters, word, mirrored)
    return (count if drawn == W else -1), drawn


@njit(cache=True, inline="always")
def _mark_revealed(revealed, reached, i, words):
    """Row i has drawn (or holds) its lanes of words 0 .. words - 1: a later row j in one of those
    words finds its pair with i there (``reached``: how many rows drew each word)."""
    bit_i = np.int64(1) << (i % LANES)
    for word in range(words):
        revealed[word, i // LANES] |= bit_i
        reached[word] += 1


@njit(cache=True)
def candidate_votes(rng, planes, q, in_c, bits, votes, first, lead, prune, scratch):
    """Votes of the rows i of C (``in_c``) that can be the most voted: ``votes[i] = #{j != i :
    theta_ij > 1/2}``, with the indicator of each pair of C drawn once (by the row drawn first) and
    mirrored (``1(theta_ji > 1/2) = 1 - 1(theta_ij > 1/2)``, the tie having probability zero), every
    other pair drawn independently with probability q[i, j] -- the law of Algorithm 1 lines 7-10
    restricted to the rows of C.  Rows are drawn in the order ``first`` (>= 0: a row of C whose lanes
    are all already in ``bits[first]``, drawn by the caller with their own law), ``lead`` (>= 0: any
    row of C, e.g. the last winner), then the others of C in increasing order.

    ``prune``: a row stops drawing as soon as it cannot reach the most votes of the rows completed
    before it (its votes so far plus its undrawn pairs are fewer); its votes are set to -1.  Exact by
    deferred decisions: each pair is still drawn at most once from its own law, whether it is drawn
    depends only on pairs drawn before, and a stopped row has fewer votes than the final maximum, so the
    set of most-voted rows, and a uniform choice among them, has the law of the full draw.  Without
    ``prune`` every row of C is complete.  ``bits`` (int64 (K, W)) receives the lanes each row drew
    (see ``unpack_rows``, which needs lead = -1 and no pruning).  scratch: int64 (SCRATCH_ROWS + W, W)
    (``scratch_rows``): the rows of C as a bit mask, the undecided lanes of a row (``_draw_row``), how
    many rows drew each word, the mirrored-vote counters as bit planes with their accumulator
    (TALLY_ROWS rows, not bit by bit; ``_add_to_counters``), and ``revealed[x, y]`` = the rows of
    word y drawn before whose lanes of word x are drawn."""
    K = q.shape[0]
    W = scratch.shape[1]
    scratch[:, :] = 0
    c_words, tails, reached = scratch[0], scratch[1], scratch[2]
    counters = scratch[3:SCRATCH_ROWS]
    revealed = scratch[SCRATCH_ROWS:]
    for i in range(K):
        if in_c[i]:
            c_words[i // LANES] |= np.int64(1) << (i % LANES)
    best = -1
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
        best = count
        _mark_revealed(revealed, reached, first, W)
    if lead == first or (lead >= 0 and not in_c[lead]):
        lead = -1
    for step in range(-1, K):
        i = lead if step < 0 else step
        if i < 0 or not in_c[i] or i == first or (step >= 0 and i == lead):
            continue
        count, words = _draw_row(rng, planes, q, bits, revealed, reached, c_words, tails, counters, i,
                                 best if prune else -1)
        votes[i] = count
        best = max(best, count)
        _mark_revealed(revealed, reached, i, words)
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
