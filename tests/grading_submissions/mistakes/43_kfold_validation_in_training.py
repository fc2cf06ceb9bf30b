"""Variant of course_style.py: the training part keeps every fold, the validation fold idx
included: it must hold the other K - 1 folds only (j != idx; section 7.3, K-fold calibration)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""

import numpy as np


def extract_train_val_folds_from_ary(X, idx, KFOLD=None):
    """Fold idx of a 1-D array (every KFOLD-th element from idx) and the other folds pooled."""
    if KFOLD is None:
        KFOLD = globals()['KFOLD']
    # MISTAKE: the training part is the other K - 1 folds (j != idx): fold idx leaks into it
    train = np.hstack([X[j::KFOLD] for j in range(KFOLD)])
    return train, X[idx::KFOLD]
