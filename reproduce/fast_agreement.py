"""Do the exact fast paths (``--fast``) give the same results as the defaults, line by line, at the scale stored?

Every line of an algorithm with a fast path (``AlgorithmSpec.fast``) stored both under the default
results folder and under its ``fast/`` sub-folder (same dataset, algorithm, parameters apart from the
fast ones, horizon, delay, shuffle, seed and runs) is compared.  (A line ``--fast`` leaves unchanged,
such as every BTM line, is the default line itself, stored once in the default folder.)  The fast path
draws other random numbers from the same law, so the two samples of runs must agree in distribution.
Run r of both lines shares the arm shuffle and the generator's seed, so the runs are paired: the mean
of the paired differences of R(T) is tested against zero (t test), the two samples of R(T) are
compared by a two-sample Kolmogorov-Smirnov test (conservative under this positive dependence), and
the whole curve by the paired test at every decade checkpoint t = 10^k, combined by Bonferroni.  The
p-values of all lines together are corrected by Holm's method; a line "DISAGREES" if one of its tests
is rejected at the family-wise level ``FAMILY_LEVEL``, else it "agrees".  A line whose fast runs equal
the default runs bit for bit (every R(T) and every point of every curve) is "identical" and not tested:
its fast path never took a fast step in any run (e.g. D-TS below ``algorithms.dts_fast.BITS_MIN_K`` arms on
data where no self-comparison run is ever skipped), so it drew the defaults' random stream, and its p-values (all 1)
would say nothing about the law; they are left empty and out of the Holm family and of the uniformity
check of the summary.

Writes ``<figures>/fast_agreement.csv`` (one row per line: both means, the paired difference and its
standard error, the three p-values (empty for an identical line), the verdict) and prints a summary.
Lines stored on one side only (still being computed) are counted and left out.

Usage: ``python reproduce/fast_agreement.py [--results results] [--figures figures/fast]``.  Exit status 0
if every compared line agrees or is identical, 1 otherwise, 2 on bad input.
"""

import sys
from pathlib import Path

from dts_reproduction.reproduce.checks.fast_path_agreement import DISAGREES, OUTPUT_NAME, compare, stored_lines, summary
from dts_reproduction.reproduce.cli.arguments import OneLineParser, doc_summary, main_guard
from dts_reproduction.reproduce.harness.limits import check_folder_readable, check_output_folder
from dts_reproduction.reproduce.harness.paths import FAST, FIGURES, RESULTS
from dts_reproduction.reproduce.output.tables import write_table


def main(argv=None) -> None:
    """Compare the two folders and write the table (see module docstring)."""
    parser = OneLineParser(description=doc_summary(__doc__))
    parser.add_argument("--results", default=str(RESULTS),
                        help=f"default results folder; the fast runs are in its '{FAST}/' sub-folder "
                             "(default results/)")
    parser.add_argument("--figures", default=str(FIGURES / FAST),
                        help=f"where {OUTPUT_NAME} is written (default figures/fast/)")

    def run():
        """Check the folders, compare the stored lines, write the table; exit 1 if a line disagrees."""
        args = parser.parse_args(argv)
        results = check_folder_readable(Path(args.results), "results folder")
        fast_folder = check_folder_readable(results / FAST, "fast results folder")
        figures = check_output_folder(Path(args.figures), "figures folder")
        table, left_out = compare(stored_lines(results, False), stored_lines(fast_folder, True))
        write_table(table, figures / OUTPUT_NAME)
        for text in summary(table, left_out):
            print(text)
        print(f"wrote {figures / OUTPUT_NAME}")
        sys.exit(1 if (not table.empty and (table["verdict"] == DISAGREES).any()) else 0)

    main_guard(run)


if __name__ == "__main__":
    main()
