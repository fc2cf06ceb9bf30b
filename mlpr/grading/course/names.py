"""The course's functions under the names students give them, and the course's lab numbers by
academic year.

`SYNONYMS` was built from the names found in public repositories of the course's students (the
functions that compute what a course function computes, under another name); a name that
differs from the course's only in letter case and underscores needs no entry (`normal`). A
synonym is a candidate, not a match: the kit grades it only when its first case agrees with the
reference, and otherwise proposes the ``--map`` line (`mlpr.grading.plan`).

`KEYWORDS` are the course's keyword arguments under the names students give them, used to call a
student's function whose parameters are named otherwise.
"""

from __future__ import annotations

import re

__all__ = ["SYNONYMS", "KEYWORDS", "normal"]


def normal(name: str) -> str:
    """A name compared up to letter case and underscores: ``compute_empirical_bayes_risk`` is
    ``compute_empirical_Bayes_risk``."""
    return re.sub(r"[\W_]+", "", name).lower()


#: course function -> other names it is written under (compared with `normal`)
SYNONYMS = {
    "compute_mu_C": ("ML_GAU", "compute_mean_covariance", "mean_cov", "compute_mu_sigma",
                     "mu_C", "compute_mean_and_covariance"),
    "compute_pca": ("computePCA", "pca_directions", "PCA_directions", "compute_PCA_P"),
    "compute_Sb_Sw": ("SbSw", "compute_Sb_and_Sw", "Sb_Sw", "between_within_covariance"),
    "compute_lda_geig": ("LDA_geig", "lda_generalized", "compute_LDA_generalized",
                         "LDA_generalized_eig"),
    "compute_lda_JointDiag": ("LDA_joint_diag", "lda_joint_diagonalization",
                              "compute_LDA_joint_diagonalization"),
    "logpdf_GAU_ND_singleSample": ("logpdf_1sample", "logpdf_GAU_ND_1_sample",
                                   "logpdf_GAU_ND_1sample", "logpdf_one_sample",
                                   "logpdf_GAU_1sample"),
    "compute_ll": ("loglikelihood", "log_likelihood", "compute_loglikelihood",
                   "compute_log_likelihood_ND"),
    "Gau_MVG_ML_estimates": ("compute_mu_c_MVG", "MVG_ML_estimates", "mvg_estimates",
                             "ML_estimates_MVG"),
    "Gau_Naive_ML_estimates": ("compute_mu_C_Naive", "Naive_ML_estimates",
                               "naive_bayes_estimates", "ML_estimates_naive"),
    "Gau_Tied_ML_estimates": ("compute_mu_C_Tied", "Tied_ML_estimates", "tied_estimates",
                              "ML_estimates_tied"),
    "compute_log_likelihood_Gau": ("compute_log_likelihood", "compute_class_log_likelihoods",
                                   "compute_loglikelihoods"),
    "compute_logPosterior": ("logPosterior", "compute_log_posteriors", "log_posteriors"),
    "compute_confusion_matrix": ("confusion_matrix", "compute_conf_matrix", "conf_matrix",
                                 "confusionMatrix"),
    "compute_optimal_Bayes_binary_llr": ("optimal_bayes_decisions", "optimal_Bayes_decisions",
                                         "compute_optimal_bayes_decisions",
                                         "optimal_decisions_binary", "bayes_decisions"),
    "compute_Pfn_Pfp_allThresholds_fast": ("compute_Pfn_Pfp_allThresholds",
                                           "compute_Pfn_Pfp"),
    "compute_minDCF_binary_fast": ("compute_minDCF_binary", "compute_min_DCF", "minDCF",
                                   "compute_minDCF", "min_DCF", "compute_min_dcf_fast"),
    "compute_minDCF_binary_slow": ("compute_min_DCF_slow", "minDCF_slow"),
    "compute_empirical_Bayes_risk_binary_llr_optimal_decisions": (
        "compute_actDCF_binary", "compute_actDCF", "actDCF", "compute_act_DCF"),
    "trainLogRegBinary": ("trainLogReg", "train_logreg", "trainLogisticRegression",
                          "train_logreg_binary", "trainLR"),
    "trainWeightedLogRegBinary": ("trainWeightedLogReg", "train_weighted_logreg",
                                  "trainPriorWeightedLogReg", "train_logreg_weighted"),
    "train_dual_SVM_linear": ("train_SVM_linear", "trainLinearSVM", "train_dual_SVM",
                              "train_linear_SVM", "linear_SVM_dual"),
    "train_dual_SVM_kernel": ("train_SVM_kernel", "trainKernelSVM", "train_kernel_SVM",
                              "kernel_SVM_dual"),
    "polyKernel": ("poly_kernel", "polynomial_kernel", "polynomialKernel", "kernel_poly"),
    "rbfKernel": ("RBF_kernel", "rbf", "kernel_rbf", "gaussian_kernel"),
    "logpdf_GMM": ("GMM_logpdf", "logpdf_gmm_ND", "gmm_logpdf", "GMM_ll_perSample"),
    "smooth_covariance_matrix": ("constrain_covariance", "constrainCov", "smoothCovariance",
                                 "covariance_floor", "constrain_eigenvalues"),
    "train_GMM_EM_Iteration": ("EM_iteration", "GMM_EM_iteration", "EM_step",
                               "em_iteration"),
    "train_GMM_EM": ("EM_GMM", "GMM_EM", "EM_algorithm", "train_EM", "EM", "gmm_em"),
    "split_GMM_LBG": ("LBG_split", "split_LBG", "LBG", "lbg_split", "GMM_LBG_split"),
    "train_GMM_LBG_EM": ("LBG_EM", "GMM_LBG_EM", "LBG_EM_GMM", "train_GMM_LBG", "LBG_GMM"),
}

#: course keyword argument -> the names students give it (compared with `normal`)
KEYWORDS = {
    "psiEig": ("psi", "psi_eig", "eig_floor", "psiEigenvalues"),
    "lbgAlpha": ("alpha",),
    "alpha": ("lbgAlpha", "lbg_alpha"),
    "epsLLAverage": ("eps_ll", "epsLL", "delta_l", "tol", "eps", "threshold", "delta"),
    "covType": ("cov_type", "covariance_type", "cov", "mode", "version"),
    "returnThreshold": ("return_threshold", "return_th", "returnTh"),
    "normalize": ("normalized", "norm", "normalise"),
    "numComponents": ("n_components", "nComponents", "components", "G", "num_components"),
    "verbose": ("print_progress", "show"),
}
