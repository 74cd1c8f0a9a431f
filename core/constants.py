"""Every constant of the paper and of the authors' simulator, in one place.

Sources: Wu & Liu (NIPS 2016), Sec. 5 and App. D; the settings of the authors' C++ simulator; the
papers of the baselines.  Each line names where the value comes from; docs/algorithms.md#constants
lists them by algorithm.
"""

# --- Confidence bounds and priors -----------------------------------------------------------------
ALPHA = 0.51  # Sec. 5: RUCB/RLCB scale factor of D-TS, D-TS+, RUCB, RCS, CCB (also SCB's KL multiplier)
ALPHA_BOUND_MIN = 0.5  # Theorem 1 / Prop. 1 need alpha > 0.5; smaller values only warn
PSEUDO_N = 1e-6  # simulator: initial comparison count of D-TS, D-TS+, RUCB, RCS, CCB (replaces "x/0 := 1")
PSEUDO_W = 1e-5  # simulator: initial win count of the same algorithms (an unseen pair has p-hat = 10)
TIE_TOLERANCE = 1e-12  # this project: a pair this close to 1/2 is a tie, which no lower bound counts (KL ~ 0)
KL_CLAMP = 1e-7  # simulator: arguments of the clamped Bernoulli KL are clipped to [1e-7, 1 - 1e-7]

# --- Baselines (Sec. 5, the authors' simulator and the cited papers) -------------------------------
BTM_GAMMA = 1.3  # Sec. 5: BTM relaxation factor gamma (confidence 3 gamma^2 sqrt(log(2KT)/n))
BTM_CONFIDENCE_SCALE = 3.0  # Yue & Joachims 2011: BTM radius 3 gamma^2 sqrt(ln(2KT)/n) (1 when n = 0)
SAVAGE_PSEUDO_N = 1e-6  # simulator: SAVAGE initial comparison count of every pair
SAVAGE_PSEUDO_W = 5e-7  # simulator: SAVAGE initial win count (an unseen pair has p-hat = 1/2)
SBM_SCALE = 3.0  # simulator: UCB base bandit of Sparring/MultiSBM, width sqrt((3+2) ln t / (2n))
RMED_F_COEF = 0.3  # Komiyama et al. 2015: RMED slack f(K) = 0.3 K^1.01
RMED_F_EXP = 1.01  # Komiyama et al. 2015: exponent of the RMED slack f(K) = 0.3 K^1.01
RMED2_ALPHA = 3.0  # Komiyama et al. 2015: RMED2 exploration constant (computed, not plotted)
ECW_RMED_ALPHA = 3.0  # Komiyama et al. 2016: forced exploration N_ij < alpha sqrt(ln t)
ECW_RMED_BETA = 0.01  # Komiyama et al. 2016: forced exploration |p-hat - 1/2| < beta / max(1, ln ln t)
KLUCB_EPS = 1e-6  # simulator: KL-UCB/LCB bisection tolerance (SCB)
SCB_FIRST_ROUND = 1000  # simulator: SCB round lengths 1000, 1e6, 1e12 (as run)
SCB_ORIGINAL_FIRST_ROUND = 4  # Zoghi et al. 2015: original SCB round lengths T_r = 2^(2^r) = 4, 16, 256, ...
SCB_PSEUDO_N = 2e-6  # simulator: SCB initial comparison count (reset every round)
SCB_PSEUDO_W = 1e-6  # simulator: SCB initial win count (an unseen pair has p-hat = 1/2)
SBM_PSEUDO_CNT = 1e-6  # simulator: SBM initial play count of every arm (Sparring, MultiSBM)
SBM_PSEUDO_SUM = 5e-6  # simulator: SBM initial reward sum of every arm
CCB_P_EXPLORE = 0.25  # Zoghi et al. 2015, CCB: pair-exploration probability
CCB_P_RESTRICT = 2.0 / 3.0  # Zoghi et al. 2015, CCB: probability of restricting C to B intersect C
CCB_P_CHALLENGER = 0.5  # Zoghi et al. 2015, CCB: probability of picking the challenger from B^{a1}
SELF_SPARRING_PRIOR = 1.0  # Sui et al. 2017 / chang-li/MergeDTS self_sparring.py: Beta(1, 1) prior of every arm
SELF_SPARRING_LEARNING_RATE = 1.0  # Sui et al. 2017, Alg. 1: eta; the MergeDTS authors' code adds 1 (eta = 1)

# --- MergeDTS and MergeRUCB (Li, Markov, de Rijke & Zoghi, ACM TOIS 2020; Zoghi, Whiteson & de Rijke,
# WSDM 2015), as the MergeDTS authors ran them (chang-li/MergeDTS, demo.py and dueling_bandits/) ---------
MERGE_ALPHA = 1.01  # demo.py 'MergeDTS', 'MergeRUCB': confidence scale alpha (> 1/2 for C's formula)
MERGE_BATCH_SIZE = 4  # demo.py / merge_dts.py default: batch size M
MERGE_EPSILON = 0.01  # merge_dts.py / merge_rucb.py default: failure probability epsilon in C's formula
MERGE_DTS_BEST = {"alpha": 0.8**6, "C": 4e5, "batch_size": 16}  # demo.py 'MergeDTSBest' (tuned)
MERGE_RUCB_BEST = {"alpha": 0.8**6, "C": 4e5, "batch_size": 8}  # demo.py 'MergeRUCBBEST' (tuned)
DTS_BEST = {"alpha": 0.8**7}  # demo.py 'DTSBEST': D-TS with a tuned alpha

# --- Successors past the paper: REX3 (Gajane, Urvoy & Clerot, ICML 2015) and Winner Stays (Chen & Frazier,
# ICML 2017) ---------------------------------------------------------------------------------------------------
REX3_GAMMA_CAP = 0.5  # Gajane et al. 2015: gamma in (0, 1/2]; the cap of gamma = min(1/2, sqrt(K ln K / T))
REX3_GAMMA_MIN_SLOTS = 10_000  # chang-li/MergeDTS rex3.py: adaptive gamma_t = min(1/2, sqrt(K ln K / max(t, 1e4)))
WS_S_BETA = 1.05  # Chen & Frazier 2017, WS-S: round r exploits floor(beta^r) slots, beta > 1 (1.05 as Kolpaczki et al.)
