// Driver for the authors' C++ simulator (HuasenWu/DuelingBandits), written for this project.
//
// It replaces the authors' main() (DuelingBandit_singleAlg.cpp, which reads a hard-coded Windows path and
// averages the runs) and calls their own single-run loop, CMAB_singleAlg::singleRun, once per run:
//   srand(seed + run); random_shuffle of the arm order (as their main does); a fresh CMAB_singleAlg
//   (or, with reuse = 1, one object for all runs, as their main does); singleRun(horizon, shuffled P, config).
// The config is the one of their main.  Output, one line per run: run index, then the Copeland regret
// R(t) = t * zeta* - sum of (zeta_a1 + zeta_a2) / 2 at every checkpoint t (their loop accumulates
// zeta_a1 + zeta_a2).  Usage: driver ALG_INDEX SEED RUNS HORIZON REUSE MATRIX_FILE CHECKPOINT_FILE OUT_FILE
#include "stdafx.h"
#include "DuelingBandit.h"
#include "MAB_singleAlg.h"

static vector<double> read_numbers(const char* path) {
	ifstream in(path);
	vector<double> values;
	double value;
	while (in >> value) {
		values.push_back(value);
	}
	return values;
}

int main(int argc, char** argv) {
	if (argc != 9) {
		cerr << "usage: driver ALG SEED RUNS HORIZON REUSE MATRIX CHECKPOINTS OUT" << endl;
		return 2;
	}
	int alg = atoi(argv[1]);
	unsigned int seed = (unsigned int)strtoul(argv[2], NULL, 10);
	int runs = atoi(argv[3]);
	int horizon = atoi(argv[4]);
	bool reuse = atoi(argv[5]) != 0;
	vector<double> flat = read_numbers(argv[6]);
	vector<double> checkpoints = read_numbers(argv[7]);
	int num_arms = (int)flat[0];
	vector<vector<double>> pref_mat(num_arms, vector<double>(num_arms));
	for (int i = 0; i < num_arms; i++) {
		for (int j = 0; j < num_arms; j++) {
			pref_mat[i][j] = flat[1 + i * num_arms + j];
		}
	}
	double best_score = 0.0;
	for (int i = 0; i < num_arms; i++) {
		double wins = 0.0;
		for (int j = 0; j < num_arms; j++) {
			if (i != j && pref_mat[i][j] > 0.5) {
				wins += 1.0;
			}
		}
		best_score = max(best_score, wins / (num_arms - 1));
	}
	struConfig config;
	config.regret_type = REGRET_TYPE_ALL_CPLD_SCORE;
	config.btm_gamma = 1.3;
	config.ucb_scale_factor = 0.51;
	config.klucb_ctrl_factor = 3.0;
	config.klucb_eps = 0.000001;
	config.sbm_scale_factor = 3.0;
	config.rmed2_alpha = 3.0;
	config.ecwrmed_alpha = 3.0;
	config.ecwrmed_beta = 0.01;

	ofstream out(argv[8]);
	out.precision(17);
	CMAB_singleAlg shared = CMAB_singleAlg(alg);
	for (int run = 0; run < runs; run++) {
		srand(seed + (unsigned int)run);
		vector<int> ind_arms;
		for (int i = 0; i < num_arms; i++) {
			ind_arms.push_back(i);
		}
		random_shuffle(ind_arms.begin(), ind_arms.end());
		vector<vector<double>> cur_pref_mat(num_arms, vector<double>(num_arms));
		for (int i = 0; i < num_arms; i++) {
			for (int j = 0; j < num_arms; j++) {
				cur_pref_mat[i][j] = pref_mat[ind_arms[i]][ind_arms[j]];
			}
		}
		CMAB_singleAlg fresh = CMAB_singleAlg(alg);
		CMAB_singleAlg& model = reuse ? shared : fresh;
		vector<double> total_reward = model.singleRun(horizon, cur_pref_mat, config);
		out << run;
		for (double t : checkpoints) {
			int slot = (int)t;
			out << " " << slot * best_score - total_reward[slot - 1] / 2.0;
		}
		out << "\n";
		out.flush();
	}
	return 0;
}
