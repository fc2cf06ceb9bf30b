"""Variant of course_style.py: the kernel SVM's scores leave out the labels: sum_i alpha_i k(x_i,
x) instead of sum_i alpha_i z_i (k(x_i, x) + eps) (eq. 174)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""


def train_dual_SVM_kernel(DTR, LTR, C, kernelFunc, eps=1.0):
    """Kernel SVM (kernel plus eps, for the bias): returns the function scoring a matrix DTE."""
    ZTR = LTR * 2.0 - 1.0
    H = (kernelFunc(DTR, DTR) + eps) * vcol(ZTR) * vrow(ZTR)
    alpha = _train_dual_SVM(H, C)

    def fScore(DTE):
        K = kernelFunc(DTR, DTE) + eps
        # MISTAKE: s(x) = sum_i alpha_i z_i k(x_i, x) (eq. 174): the labels are missing
        return (vcol(alpha) * K).sum(0)

    return fScore
