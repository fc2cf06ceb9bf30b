"""Every figure of the course: one style, labelled axes, legends, titles naming data and model.

This is the only module of mlpr that imports matplotlib. Functions take data in the library's
(D, N) convention, draw on a new figure (or on ``ax`` when given) and return the figure;
`save_figure` writes a PNG and closes it. The Agg backend is used unless a display backend was
chosen explicitly (a lecture's ``--show``).
"""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

if "MPLBACKEND" not in os.environ:
    matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

from .utils import check_data_labels  # noqa: E402

__all__ = [
    "COURSE_STYLE",
    "class_colors",
    "save_figure",
    "figure_grid",
    "plot_class_histograms",
    "plot_pair_scatter",
    "plot_scatter_2d",
    "plot_gaussian_fit_1d",
    "plot_gaussian_contours_2d",
    "plot_curves",
    "plot_decision_regions",
    "plot_bars",
    "plot_images",
    "plot_roc",
    "plot_det",
    "plot_bayes_error",
    "plot_confusion_matrix",
]

COURSE_STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 120,
    "savefig.bbox": "tight",
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.framealpha": 0.8,
    "font.size": 10,
}
plt.rcParams.update(COURSE_STYLE)

_PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
            "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]



def _fig_ax(ax, figsize):
    """The axes to draw on and their figure: ``ax`` itself, or one new axes of ``figsize``."""
    if ax is not None:
        return ax.figure, ax
    fig = plt.figure(figsize=figsize)
    return fig, fig.add_subplot()


def _grid_2d(D: np.ndarray, pad: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """An n x n meshgrid over the box of 2-D data ``D`` (2, N), widened by ``pad`` of its size."""
    margin = pad * (D.max(axis=1) - D.min(axis=1))
    gx = np.linspace(D[0].min() - margin[0], D[0].max() + margin[0], n)
    gy = np.linspace(D[1].min() - margin[1], D[1].max() + margin[1], n)
    return np.meshgrid(gx, gy)

def class_colors(K: int) -> list[str]:
    """The course's colour for each of K classes (class k always has the same colour)."""
    return [_PALETTE[k % len(_PALETTE)] for k in range(K)]


def save_figure(fig, path, *, close: bool = True) -> Path:
    """Write ``fig`` to ``path`` (parents created), close it unless asked not to, and return the
    path. The format follows the suffix (``.png`` for the course's figures, ``.pdf``, ...)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    if close:
        plt.close(fig)
    return path


def _labelled(D, L, min_rows: int = 1) -> tuple[np.ndarray, np.ndarray, int]:
    """Validated (D, N) data, labels and the number of classes K = max(L) + 1."""
    D, L = check_data_labels(D, L, require_all=False)
    if D.shape[0] < min_rows:
        raise ValueError(f"D has shape {D.shape}: this plot needs at least {min_rows} rows "
                         f"(features), one column per sample")
    return D, L, int(L.max()) + 1


def _names(names, n: int, prefix: str) -> list[str]:
    if names is None:
        return [f"{prefix} {i}" for i in range(n)]
    names = list(names)
    if len(names) < n:
        raise ValueError(f"{len(names)} names given for {n} {prefix}s: one name per {prefix}")
    return names


def figure_grid(nrows: int, ncols: int, *, title: str = "", width: float = 3.6,
                height: float = 3.0):
    """A new figure with an (nrows, ncols) array of axes, for functions that take ``ax``."""
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                             squeeze=False)
    if title:
        fig.suptitle(title)
    return fig, axes


def _grid(n: int, ncols: int):
    ncols = min(ncols, n)
    nrows = int(np.ceil(n / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.6 * ncols, 3.0 * nrows), squeeze=False)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return fig, axes.ravel()


def plot_class_histograms(D, L, *, feature_names=None, class_names=None, title="", bins=10,
                          density=True, ncols=4):
    """One histogram panel per feature (row of ``D`` (D, N)), classes overlaid."""
    D, L, K = _labelled(D, L)
    fnames = _names(feature_names, D.shape[0], "feature")
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, axes = _grid(D.shape[0], ncols)
    for i, ax in enumerate(axes[: D.shape[0]]):
        edges = np.histogram_bin_edges(D[i], bins=bins)  # the same bins for every class
        for k in np.unique(L):
            ax.hist(D[i, L == k], bins=edges, density=density, alpha=0.45, color=colors[k],
                    edgecolor=colors[k], label=cnames[k])
        ax.set_xlabel(fnames[i])
        ax.set_ylabel("density" if density else "count")
    axes[0].legend()
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_pair_scatter(D, L, *, feature_names=None, class_names=None, title="", bins=10):
    """The D x D grid of pairwise scatter plots, per-class histograms on the diagonal."""
    D, L, K = _labelled(D, L)
    n = D.shape[0]
    fnames = _names(feature_names, n, "feature")
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, axes = plt.subplots(n, n, figsize=(2.6 * n, 2.4 * n), squeeze=False)
    for i in range(n):
        edges = np.histogram_bin_edges(D[i], bins=bins)  # the same bins for every class
        for j in range(n):
            ax = axes[i, j]
            for k in np.unique(L):
                if i == j:
                    ax.hist(D[i, L == k], bins=edges, density=True, alpha=0.45, color=colors[k],
                            label=cnames[k])
                else:
                    ax.scatter(D[j, L == k], D[i, L == k], s=6, alpha=0.6, color=colors[k],
                               label=cnames[k])
            if i == n - 1:
                ax.set_xlabel(fnames[j])
            if j == 0:
                ax.set_ylabel(fnames[i])
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_scatter_2d(D, L, *, class_names=None, xlabel="direction 1", ylabel="direction 2",
                    title="", ax=None):
    """Scatter of the first two rows of ``D`` (2+, N), one colour per class."""
    D, L, K = _labelled(D, L)
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, ax = _fig_ax(ax, (5, 4.2))
    y = D[1] if D.shape[0] > 1 else np.zeros(D.shape[1])
    for k in range(K):
        ax.scatter(D[0, L == k], y[L == k], s=10, alpha=0.7, color=colors[k], label=cnames[k])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    return fig


def _scalar(v, name: str) -> float:
    a = np.asarray(v, dtype=float)
    if a.size != 1:
        raise ValueError(f"{name} must be a scalar (or a (1, 1) estimate), got shape {a.shape}")
    return float(a.reshape(()))


def plot_gaussian_fit_1d(x, mu, var, *, xlabel, title="", label="data", bins=25, ax=None,
                         color=None):
    """Histogram of the samples ``x`` (N,) with the density of N(mu, var) over it."""
    x = np.ravel(np.asarray(x, dtype=float))
    mu, var = _scalar(mu, "mu"), _scalar(var, "var")
    fig, ax = _fig_ax(ax, (5, 3.6))
    ax.hist(x, bins=bins, density=True, alpha=0.45, color=color, label=f"{label} (histogram)")
    span = x.max() - x.min()
    grid = np.linspace(x.min() - 0.25 * span, x.max() + 0.25 * span, 400)
    pdf = np.exp(-0.5 * np.log(2 * np.pi * var) - 0.5 * (grid - mu) ** 2 / var)
    ax.plot(grid, pdf, color=color or "k", lw=2,
            label=rf"ML Gaussian $\mu$={mu:.3g}, $\sigma^2$={var:.3g}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density")
    ax.set_title(title)
    ax.legend()
    return fig


def plot_gaussian_contours_2d(D, L, logpdf, *, class_names=None, xlabel, ylabel, title="",
                              ax=None, levels=6):
    """Scatter of 2-D data ``D`` (2, N) with contours of a fitted density per class.

    Parameters
    ----------
    logpdf : callable ``logpdf(X, k) -> (M,)``, the class-k log-density at the columns of X (2, M).
    levels : int
        Number of contours per class, at log-density ``max - r^2 / 2`` for r = 0.5, 1, ...
    """
    D, L, K = _labelled(D, L, min_rows=2)
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, ax = _fig_ax(ax, (5.5, 4.5))
    XX, YY = _grid_2d(D, 0.15, 200)
    grid = np.vstack([XX.ravel(), YY.ravel()])
    for k in range(K):
        ax.scatter(D[0, L == k], D[1, L == k], s=10, alpha=0.6, color=colors[k], label=cnames[k])
        logZ = logpdf(grid, k).reshape(XX.shape)
        # levels at fractions exp(-r^2 / 2) of the peak: for a Gaussian, the ellipses of
        # Mahalanobis radius r = 0.5, 1, ..., 0.5 * levels
        r = 0.5 * np.arange(levels, 0, -1)
        ax.contour(XX, YY, logZ, levels=logZ.max() - 0.5 * r**2, colors=colors[k],
                   linewidths=1, linestyles="solid")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    return fig


def plot_decision_regions(D, L, predict, *, class_names=None, xlabel="x1", ylabel="x2",
                          title="", ax=None, resolution=300):
    """Scatter of 2-D data ``D`` (2, N) over the regions a classifier assigns to each class.

    Parameters
    ----------
    predict : callable ``predict(X) -> (M,)`` integer labels for the columns of X (2, M).
    """
    D, L, K = _labelled(D, L, min_rows=2)
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, ax = _fig_ax(ax, (5.5, 4.5))
    XX, YY = _grid_2d(D, 0.1, resolution)
    Z = np.asarray(predict(np.vstack([XX.ravel(), YY.ravel()]))).reshape(XX.shape)
    cmap = matplotlib.colors.ListedColormap(colors)
    ax.contourf(XX, YY, Z, levels=np.arange(K + 1) - 0.5, cmap=cmap, alpha=0.15)
    if K > 1:  # the boundaries lie between consecutive labels
        ax.contour(XX, YY, Z, levels=np.arange(K - 1) + 0.5, colors="k", linewidths=1)
    for k in range(K):
        ax.scatter(D[0, L == k], D[1, L == k], s=8, alpha=0.7, color=colors[k], label=cnames[k])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    return fig


def plot_curves(x, ys: dict, *, xlabel, ylabel, title="", logx=False, marker="o", ax=None,
                hlines: dict | None = None):
    """Line plot of several named curves over a common x; ``hlines`` adds labelled horizontal
    reference lines."""
    fig, ax = _fig_ax(ax, (5.5, 4))
    for name, y in ys.items():
        ax.plot(x, y, marker=marker, ms=4, label=name)
    for name, y in (hlines or {}).items():
        ax.axhline(y, ls="--", lw=1, color="gray", label=name)
    if logx:
        ax.set_xscale("log")
        if len(x) <= 12:  # label the measured points themselves, not powers of ten
            ax.set_xticks(x, [f"{v:g}" for v in x])
            ax.minorticks_off()
        else:
            plain = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}")
            ax.xaxis.set_major_formatter(plain)
            ax.xaxis.set_minor_formatter(plain)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    return fig


def plot_bars(categories, values: dict, *, xlabel, ylabel, title="", ax=None):
    """Grouped bar chart: one group per category, one bar per named series."""
    categories = list(categories)
    fig, ax = _fig_ax(ax, (5.5, 4))
    n = len(values)
    width = 0.8 / max(n, 1)
    pos = np.arange(len(categories))
    for i, (name, v) in enumerate(values.items()):
        ax.bar(pos + (i - (n - 1) / 2) * width, v, width=width, label=name)
    ax.set_xticks(pos, [str(c) for c in categories])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    return fig


def plot_images(D, *, shape=(28, 28), titles=None, ncols=10, title="", cmap="gray_r",
                symmetric=False):
    """Show the columns of ``D`` (H*W, N) as H x W images, e.g. MNIST digits or PCA directions.

    ``symmetric=True`` centres the colour map on 0 (for directions with signed components).
    """
    D = np.asarray(D, dtype=float)
    D = D.reshape(-1, 1) if D.ndim == 1 else D  # one image given as a vector
    if D.ndim != 2 or D.shape[0] != int(np.prod(shape)):
        hint = " (did you mean D.T?)" if D.ndim == 2 and D.shape[1] == int(np.prod(shape)) else ""
        raise ValueError(f"D has shape {D.shape} but images of shape {tuple(shape)} need "
                         f"{int(np.prod(shape))} rows, one image per column{hint}")
    n = D.shape[1]
    if titles is not None and len(titles) < n:
        raise ValueError(f"{len(titles)} titles given for {n} images")
    ncols = min(ncols, n)
    nrows = int(np.ceil(n / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(1.3 * ncols, 1.45 * nrows + 0.4),
                             squeeze=False)
    for i, ax in enumerate(axes.ravel()):
        ax.axis("off")
        if i >= n:
            continue
        img = D[:, i].reshape(shape)
        if symmetric:
            v = np.abs(img).max() or 1.0
            ax.imshow(img, cmap="RdBu_r", vmin=-v, vmax=v)
        else:
            ax.imshow(img, cmap=cmap)
        if titles is not None:
            ax.set_title(str(titles[i]), fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------------------------------------
# evaluation (notes ch. 7): ROC, DET, Bayes error plots, confusion matrices

_DET_TICKS = (0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4,
              0.6, 0.8, 0.9, 0.95, 0.98, 0.99)


def plot_roc(curves: dict, title="", ax=None):
    """ROC curves: true positive rate against false positive rate, one line per named system.

    Parameters
    ----------
    curves : dict
        ``name -> (Pfp, Ptp)``, e.g. ``mlpr.evaluation.roc_points(scores, L)``.
    """
    fig, ax = _fig_ax(ax, (4.8, 4.6))
    for i, (name, (pfp, ptp)) in enumerate(curves.items()):
        ax.plot(pfp, ptp, lw=1.5, color=_PALETTE[i % len(_PALETTE)], label=name)
    ax.plot([0, 1], [0, 1], ls=":", lw=1, color="gray", label="chance")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel(r"false positive rate $P_{fp}$")
    ax.set_ylabel(r"true positive rate $P_{tp} = 1 - P_{fn}$")
    ax.set_title(title)
    ax.legend(loc="lower right")
    return fig


def plot_det(curves: dict, title="", ax=None, lim=(0.001, 0.5)):
    r"""DET curves: miss rate against false positive rate on normal-deviate (probit) axes.

    Parameters
    ----------
    curves : dict
        ``name -> (Pfp, Pfn)``, e.g. ``mlpr.evaluation.det_points(scores, L)``.
    lim : (float, float)
        Visible range of both rates, as fractions in (0, 1); ticks are labelled in percent.

    Notes
    -----
    Each axis shows :math:`\Phi^{-1}(P)` (``scipy.special.ndtri``, the same function as
    ``scipy.stats.norm.ppf``), so that Gaussian class scores give straight lines. Rates of 0
    and 1 are clipped to 1e-9 and 1 - 1e-9, far outside the visible range. The dotted diagonal
    Pfn = Pfp meets each curve at its EER.
    """
    from scipy.special import ndtri

    lo, hi = (float(v) for v in lim)
    if not 0.0 < lo < hi < 1.0:
        raise ValueError(f"lim must satisfy 0 < lim[0] < lim[1] < 1, got {lim!r}")
    eps = 1e-9

    def probit(p):
        return ndtri(np.clip(np.asarray(p, dtype=float), eps, 1.0 - eps))

    fig, ax = _fig_ax(ax, (4.8, 4.6))
    for i, (name, (pfp, pfn)) in enumerate(curves.items()):
        ax.plot(probit(pfp), probit(pfn), lw=1.5, color=_PALETTE[i % len(_PALETTE)], label=name)
    ax.plot(probit([lo, hi]), probit([lo, hi]), ls=":", lw=1, color="gray",
            label=r"$P_{fn} = P_{fp}$ (EER)")
    ticks = [t for t in _DET_TICKS if lo <= t <= hi]
    labels = [f"{100 * t:g}" for t in ticks]
    ax.set_xticks(probit(ticks), labels=labels)
    ax.set_yticks(probit(ticks), labels=labels)
    ax.set_xlim(probit(lo), probit(hi))
    ax.set_ylim(probit(lo), probit(hi))
    ax.set_aspect("equal")
    ax.set_xlabel(r"false positive rate $P_{fp}$ (%)")
    ax.set_ylabel(r"false negative (miss) rate $P_{fn}$ (%)")
    ax.set_title(title)
    ax.legend(loc="upper right")
    return fig


def plot_bayes_error(prior_log_odds, curves: dict, title="", ax=None, ylim=(0.0, 1.1)):
    """Bayes error plot: actual (solid) and minimum (dashed) normalised DCF against the prior
    log-odds, one colour per system, as in the notes.

    Parameters
    ----------
    prior_log_odds : array_like, shape (P,)
    curves : dict
        ``name -> (actDCF, minDCF)``, arrays of shape (P,), e.g. the last two outputs of
        ``mlpr.evaluation.bayes_error_curve(llr, L, prior_log_odds)``.
    """
    x = np.asarray(prior_log_odds, dtype=float)
    fig, ax = _fig_ax(ax, (5.5, 4))
    for i, (name, (act, mindcf)) in enumerate(curves.items()):
        color = _PALETTE[i % len(_PALETTE)]
        ax.plot(x, act, ls="-", lw=1.5, color=color, label=f"{name}: actDCF")
        ax.plot(x, mindcf, ls="--", lw=1.5, color=color, label=f"{name}: minDCF")
    ax.set_xlim(x.min(), x.max())
    ax.set_ylim(*ylim)
    ax.set_xlabel(r"prior log-odds $\log \frac{\tilde\pi}{1 - \tilde\pi}$")
    ax.set_ylabel("normalised DCF")
    ax.set_title(title)
    ax.legend()
    return fig


def plot_confusion_matrix(M, class_names=None, title="", ax=None, cmap="Blues"):
    """Heat map of a confusion matrix with the count in each cell.

    Parameters
    ----------
    M : array_like, shape (K, K)
        ``M[i, j]`` = samples predicted i whose true class is j (`mlpr.evaluation.
        confusion_matrix`): rows (y axis) are predicted classes, columns (x axis) true classes.
    """
    M = np.asarray(M)
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"M must be a square (K, K) confusion matrix, got shape {M.shape}")
    K = M.shape[0]
    names = [str(n) for n in _names(class_names, K, "class")]
    fig, ax = _fig_ax(ax, (1.2 + 0.6 * K, 0.9 + 0.6 * K) if K > 4 else (4, 3.4))
    im = ax.imshow(M, cmap=cmap)
    ax.grid(False)
    top = float(M.max()) if M.size else 0.0
    integral = np.all(np.asarray(M) == np.round(M))
    for i in range(K):
        for j in range(K):
            v = M[i, j]
            ax.text(j, i, f"{int(v)}" if integral else f"{v:.3g}", ha="center", va="center",
                    fontsize=8 if K > 6 else 10,
                    color="white" if top > 0 and v > 0.5 * top else "black")
    ax.set_xticks(range(K), labels=names)
    ax.set_yticks(range(K), labels=names)
    ax.set_xlabel("true class")
    ax.set_ylabel("predicted class")
    ax.set_title(title)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="count")
    return fig
