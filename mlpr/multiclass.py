r"""Multiclass classification from binary classifiers: one versus the rest, one versus one.

Generic over any binary learner of the library, ``train(D, L) -> model`` with ``model.scores(D)``
returning (N,) scores (class 1 when :math:`s > 0`), as `mlpr.evaluation.kfold_scores` takes:
`mlpr.svm.train_svm_linear`, `mlpr.svm.train_svm_kernel`, `mlpr.logreg.train_logreg_binary`,
... wrapped in a ``lambda D, L: ...`` that fixes the hyperparameters (a trainer that needs more
than (D, L) is refused with that hint). Section 8.5 of the notes and section 6.2.2 of the
linear-methods notes (note 003).

Both wrappers return (K, N) class scores and decide by the largest score, ties going to the
lowest class index (``numpy.argmax``, as libsvm):

* **One versus the rest** (K classifiers): score of class k = the score of the classifier trained
  with class k as 1 and every other class as 0. Taken one at a time, the K decisions
  :math:`s_k(x) > 0` leave *ambiguous regions* (no classifier claims x, or several do); the
  arg max of the scores assigns them (`OneVsRest.claims` gives the raw claims, to draw them).
  Note 003 describes the construction with **K - 1** classifiers (``last_implicit=True``):
  classes 0..K-2 each against the rest, and class K - 1 wherever none of them claims x; only
  the regions that several classifiers claim stay ambiguous.
* **One versus one** (K (K - 1) / 2 classifiers, one per pair a < b, trained on the samples of
  a and b only with a as 1): each votes for a when :math:`s_{ab}(x) > 0` and for b otherwise (a
  score exactly 0 goes to b, the library's strict rule). Score of class k = its number of votes.
  The ambiguous region is where votes tie (for 3 classes: each class gets one vote); the tie
  goes to the lowest class index.
"""

from __future__ import annotations

import inspect

import numpy as np

from ._validation import check_bool, check_data, check_multiclass
from .utils import model

__all__ = ["OneVsRest", "OneVsOne", "train_one_vs_rest", "train_one_vs_one"]


def _check_train(train, D, L) -> None:
    if not callable(train):
        raise TypeError(
            f"train must be a callable train(D, L) -> model with model.scores(D) of shape (N,), "
            f"got {type(train).__name__}"
        )
    try:
        signature = inspect.signature(train)
    except (TypeError, ValueError):  # a callable whose signature Python cannot read
        return
    try:
        signature.bind(D, L)
    except TypeError as exc:  # e.g. train_svm_linear itself: C is missing
        name = getattr(train, "__name__", type(train).__name__)
        needed = [p.name for p in list(signature.parameters.values())[2:]
                  if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        fixed = "".join(f", {p}=..." for p in needed)
        raise TypeError(
            f"train must take (D, L) only, but {name}(D, L) fails: {exc}; fix the other "
            f"arguments with a lambda, e.g. lambda D, L: {name}(D, L{fixed}) with each ... "
            f"replaced by your value"
        ) from None


def _binary_scores(m, X: np.ndarray, who: str) -> np.ndarray:
    s = np.asarray(m.scores(X), dtype=np.float64)
    if s.shape != (X.shape[1],):
        raise ValueError(
            f"the binary model for {who} returned scores of shape {s.shape} for {X.shape[1]} "
            f"samples, expected ({X.shape[1]},): train must return a binary model"
        )
    return s


@model
class OneVsRest:
    """K binary models, ``models[k]`` trained with class k as 1 and the rest as 0 (one versus
    the rest: note 003, section 6.2.2; section 8.5 of the MLPR notes).

    Attributes
    ----------
    models : tuple
        The binary models: K, or K - 1 with ``last_implicit`` (classes 0..K-2).
    last_implicit : bool
        Note 003's K - 1 classifiers: the last class has no model of its own and is the
        decision wherever no model claims x.
    """

    models: tuple
    last_implicit: bool = False

    @property
    def n_classes(self) -> int:
        return len(self.models) + int(self.last_implicit)

    def scores(self, D) -> np.ndarray:
        """Class scores (K, N): row k is ``models[k].scores(D)``; decide by arg max. With
        ``last_implicit`` the last row is 0, the threshold of the others' claims."""
        X = check_data(D)
        rows = [_binary_scores(m, X, f"class {k} vs rest") for k, m in enumerate(self.models)]
        if self.last_implicit:
            rows.append(np.zeros(X.shape[1]))
        return np.vstack(rows)

    def claims(self, D) -> np.ndarray:
        """(K, N) booleans, ``s_k(x) > 0``: the classes that claim each sample. A column with
        none or several True is in an ambiguous region of one versus the rest. With
        ``last_implicit`` the last class claims exactly the samples no other class claims."""
        S = self.scores(D)
        C = S > 0
        if self.last_implicit:
            C[-1] = ~C[:-1].any(axis=0)
        return C

    def predict(self, D) -> np.ndarray:
        """Labels (N,): arg max of the scores, ties to the lowest class; with
        ``last_implicit``, the last class where no model's score is > 0 (the strict rule)."""
        S = self.scores(D)
        if self.last_implicit:
            return np.where((S[:-1] > 0).any(axis=0), np.argmax(S[:-1], axis=0), S.shape[0] - 1)
        return np.argmax(S, axis=0)


@model
class OneVsOne:
    """One binary model per pair of classes a < b, trained with a as 1 and b as 0 (one versus
    one with voting: note 003, section 6.2.2; section 8.5 of the MLPR notes).

    Attributes
    ----------
    models : tuple
        The K (K - 1) / 2 binary models, in the order of ``pairs``.
    pairs : tuple of (int, int)
        ``(a, b)`` with a < b: (0, 1), (0, 2), ..., (K - 2, K - 1).
    n_classes : int
    """

    models: tuple
    pairs: tuple
    n_classes: int

    def scores(self, D) -> np.ndarray:
        """Votes (K, N), as floats: row k counts the pairwise models that chose class k."""
        X = check_data(D)
        votes = np.zeros((self.n_classes, X.shape[1]))
        for (a, b), m in zip(self.pairs, self.models):
            wins_a = _binary_scores(m, X, f"{a} vs {b}") > 0  # strict: a score of 0 votes b
            votes[a] += wins_a
            votes[b] += ~wins_a
        return votes

    def predict(self, D) -> np.ndarray:
        """Labels (N,): the class with most votes, ties to the lowest class."""
        return np.argmax(self.scores(D), axis=0)


def train_one_vs_rest(train, D, L, last_implicit: bool = False) -> OneVsRest:
    """Train one binary model per class, that class against all the others.

    Parameters
    ----------
    train : callable
        ``train(D, L) -> model`` for binary labels 0/1, ``model.scores(D)`` of shape (N,).
    D : array_like, shape (D, N)
    L : array_like, shape (N,)
        Labels 0..K-1, every class present, K >= 2.
    last_implicit : bool
        False (default): K models. True: note 003's K - 1 models, for classes 0..K-2, the last
        class being decided wherever none of them claims x.

    Returns
    -------
    OneVsRest
        ``scores(D)`` (K, N); ``predict(D)`` the arg max.

    Notes
    -----
    One versus the rest of note 003, section 6.2.2 (section 8.5 of the notes points to it): K
    problems with labels :math:`c_i^{(k)} = [c_i = k]`. Each binary problem is unbalanced
    (about 1 : K - 1); pass a re-balancing prior through ``train`` if wanted (``prior=0.5``).
    """
    D, L, K = check_multiclass(D, L, "a multiclass reduction")
    _check_train(train, D, L)
    last_implicit = check_bool(last_implicit, "last_implicit")
    n = K - 1 if last_implicit else K
    return OneVsRest(models=tuple(train(D, (L == k).astype(np.int64)) for k in range(n)),
                     last_implicit=last_implicit)


def train_one_vs_one(train, D, L) -> OneVsOne:
    """Train one binary model per pair of classes and combine them by voting.

    Parameters
    ----------
    train : callable
        ``train(D, L) -> model`` for binary labels 0/1, ``model.scores(D)`` of shape (N,).
    D : array_like, shape (D, N)
    L : array_like, shape (N,)
        Labels 0..K-1, every class present, K >= 2.

    Returns
    -------
    OneVsOne
        ``scores(D)`` the (K, N) votes; ``predict(D)`` the class with most votes.

    Notes
    -----
    One versus one of note 003, section 6.2.2 (section 8.5 of the notes): the model for the pair
    (a, b), a < b, sees only the samples of a (label 1) and b (label 0).
    """
    D, L, K = check_multiclass(D, L, "a multiclass reduction")
    _check_train(train, D, L)
    pairs = tuple((a, b) for a in range(K) for b in range(a + 1, K))
    models = []
    for a, b in pairs:
        keep = (L == a) | (L == b)
        models.append(train(D[:, keep], (L[keep] == a).astype(np.int64)))
    return OneVsOne(models=tuple(models), pairs=pairs, n_classes=K)
