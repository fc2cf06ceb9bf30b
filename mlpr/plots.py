"""Every figure of the course: one style, labelled axes, legends, titles naming data and model.

This is the only module of mlpr that imports matplotlib. Functions take data in the library's
(D, N) convention, draw on a new figure (or on ``ax`` when given) and return the figure;
`save_figure` writes a PNG and closes it.

Importing this module changes no global state: the backend is matplotlib's own choice (Agg where
there is no display, or the ``MPLBACKEND`` the caller set), and the course's style,
`COURSE_STYLE`, is applied only while one of the functions below runs (``matplotlib.rc_context``
around each of them, and the grid and spines of an ``ax`` passed in set on that axes itself), so
that figures drawn with ``plt`` elsewhere keep the caller's settings. Save with `save_figure`
to get the course's resolution and tight bounding box.
"""

from __future__ import annotations

import functools
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import matplotlib.ticker
import numpy as np

from ._validation import check_data, check_data_labels, check_int, check_real, check_vector
from .dimred import hyperplane_offset, project_on_hyperplane, signed_distance
from .gmm import logpdf_GMM

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

#: The course's matplotlib settings (``rcParams``): in force only while a function of this module
#: runs (``matplotlib.rc_context``), and in the files `save_figure` writes.
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

_PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
            "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]


def _course_style(f):
    """Run the plotting function ``f`` with `COURSE_STYLE` in force, and only then: the figures,
    axes, texts and legends it creates, and the files `save_figure` writes, take the course's
    settings; ``matplotlib.rcParams`` is back as it was when ``f`` returns or raises."""

    @functools.wraps(f)
    def styled(*args, **kwargs):
        with matplotlib.rc_context(COURSE_STYLE):
            return f(*args, **kwargs)

    return styled


def _style_axes(ax) -> None:
    """The course's grid and spines on axes made outside the style (an ``ax`` passed in), set on
    the axes itself: what `COURSE_STYLE` gives the axes made inside it."""
    ax.grid(True, alpha=COURSE_STYLE["grid.alpha"])
    ax.spines["top"].set_visible(COURSE_STYLE["axes.spines.top"])
    ax.spines["right"].set_visible(COURSE_STYLE["axes.spines.right"])


def _fig_ax(ax, figsize):
    """The axes to draw on and their figure: ``ax`` itself (given the course's grid and
    spines), or one new axes of ``figsize``."""
    if ax is not None:
        if not isinstance(ax, matplotlib.axes.Axes):
            raise TypeError(f"ax must be a matplotlib Axes (e.g. from figure_grid) or None, got "
                            f"{type(ax).__name__}")
        _style_axes(ax)
        return ax.figure, ax
    fig = plt.figure(figsize=figsize)
    return fig, fig.add_subplot()


def _grid_2d(D: np.ndarray, pad: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """An n x n meshgrid over the box of 2-D data ``D`` (2, N), widened by ``pad`` of its size."""
    margin = pad * (D.max(axis=1) - D.min(axis=1))
    gx = np.linspace(D[0].min() - margin[0], D[0].max() + margin[0], n)
    gy = np.linspace(D[1].min() - margin[1], D[1].max() + margin[1], n)
    return np.meshgrid(gx, gy)

# -- input checks of the helpers below (the shared data/label validators: mlpr._validation) --

def _check_mapping(curves, name: str, expected: str) -> dict:
    """``curves`` as a dict of named series; ``expected`` describes one value."""
    if not isinstance(curves, dict):
        raise TypeError(f"{name} must be a dict name -> {expected}, got "
                        f"{type(curves).__name__}")
    return curves


def _check_series(y, name: str, n: int | None = None, *, what: str = "values") -> np.ndarray:
    """A finite 1-D float series (of length ``n`` when given)."""
    try:
        a = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 1-D array of numbers ({what}), got "
                        f"{type(y).__name__}") from None
    if a.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array ({what}), got shape {a.shape}")
    if n is not None and a.shape[0] != n:
        raise ValueError(f"{name} has shape {a.shape} but x has {n} points: expected ({n},)")
    if a.shape[0] == 0:
        raise ValueError(f"{name} is empty: expected at least one value ({what})")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values ({what})")
    return a


def _check_pair(value, name: str, first: str, second: str, source: str, *, rates=True):
    """A pair (first, second) of finite 1-D arrays of one length, e.g. ``roc_points(...)``."""
    shape = np.shape(value) if isinstance(value, np.ndarray) else None
    if shape is not None and (len(shape) != 2 or shape[0] != 2):
        raise ValueError(f"{name} has shape {shape}: expected a pair ({first}, {second}) of "
                         f"1-D arrays, e.g. {source}, not the scores themselves")
    if not isinstance(value, (tuple, list, np.ndarray)) or len(value) != 2:
        got = f"length {len(value)}" if hasattr(value, "__len__") else type(value).__name__
        raise ValueError(f"{name} must be a pair ({first}, {second}) of 1-D arrays, e.g. "
                         f"{source}; got {got}")
    a = _check_series(value[0], f"{name}[0] ({first})")
    b = _check_series(value[1], f"{name}[1] ({second})")
    if a.shape != b.shape:
        raise ValueError(f"{name}: {first} has shape {a.shape} but {second} has shape "
                         f"{b.shape}; expected two arrays of one length")
    if rates and (a.min() < 0 or a.max() > 1 or b.min() < 0 or b.max() > 1):
        raise ValueError(f"{name}: rates must lie in [0, 1] (fractions, not percent), got "
                         f"values in [{min(a.min(), b.min()):g}, {max(a.max(), b.max()):g}]")
    return a, b


def _check_figure_size(v, name: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or \
            not np.isfinite(v) or v <= 0:
        raise ValueError(f"{name} must be a positive number, got {v!r}")
    return float(v)


def _check_callable(f, name: str, signature: str):
    if not callable(f):
        raise TypeError(f"{name} must be a callable {signature}, got {type(f).__name__}")
    return f


def class_colors(K: int) -> list[str]:
    """The course's colour for each of K classes (class k always has the same colour)."""
    K = check_int(K, "K", low=0)
    return [_PALETTE[k % len(_PALETTE)] for k in range(K)]


@_course_style
def save_figure(fig, path, *, close: bool = True, formats=()) -> Path:
    """Write ``fig`` to ``path`` (parents created), close it unless asked not to, and return the
    path. The format follows the suffix (``.png`` for the course's figures, ``.pdf``, ...).

    ``formats`` (e.g. ``("pdf", "svg")``) writes the same figure again beside ``path`` in each
    of these formats, under the same name with that suffix, for slides. Fonts are embedded in
    vector files (PDF TrueType, ``pdf.fonttype`` 42; SVG text as paths), so that they print and
    project as drawn on any machine.
    """
    if not isinstance(fig, matplotlib.figure.Figure):
        raise TypeError(f"fig must be a matplotlib Figure (what the plot_* helpers return), got "
                        f"{type(fig).__name__}")
    if isinstance(formats, str):
        formats = [f for f in formats.split(",") if f]
    formats = [str(f).lower().lstrip(".") for f in formats]
    supported = fig.canvas.get_supported_filetypes()
    for f in formats:
        if f not in supported:
            raise ValueError(f"formats: {f!r} is not a format matplotlib writes; expected some of "
                             f"{', '.join(sorted(supported))}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with plt.rc_context({"pdf.fonttype": 42, "ps.fonttype": 42, "svg.fonttype": "path"}):
        fig.savefig(path)
        for f in formats:
            if path.with_suffix("." + f) != path:
                fig.savefig(path.with_suffix("." + f))
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


@_course_style
def figure_grid(nrows: int, ncols: int, *, title: str = "", width: float = 3.6,
                height: float = 3.0):
    """A new figure with an (nrows, ncols) array of axes, for functions that take ``ax``."""
    nrows, ncols = check_int(nrows, "nrows", low=1), check_int(ncols, "ncols", low=1)
    width, height = _check_figure_size(width, "width"), _check_figure_size(height, "height")
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                             squeeze=False)
    if title:
        fig.suptitle(title)
    return fig, axes


def _bin_edges(x: np.ndarray, bins) -> np.ndarray:
    """numpy's histogram bin edges for ``x``, interior edges raised by 1e-9 of a bin.

    Data measured on a grid (iris is in steps of 0.1 cm) put values exactly on interior edges,
    and rounding then sends such a value to either side, so that the histogram of ``x - mu``
    differs from that of ``x``; off the grid, the counts are the same before and after a shift.
    """
    edges = np.histogram_bin_edges(x, bins=bins)
    if np.ndim(bins) == 0 and edges.size > 2:
        edges[1:-1] += 1e-9 * (edges[-1] - edges[0]) / (edges.size - 1)
    return edges


def _figure_legend(fig, ax) -> None:
    """One legend for a grid of panels (the classes of ``ax``), right of the panels, so that it
    covers no bar or point; ``savefig(bbox_inches="tight")`` keeps it in the image."""
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.0, 0.9),
               bbox_transform=fig.transFigure)


def _grid(n: int, ncols: int):
    ncols = min(ncols, n)
    nrows = int(np.ceil(n / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.6 * ncols, 3.0 * nrows), squeeze=False)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return fig, axes.ravel()


@_course_style
def plot_class_histograms(D, L, *, feature_names=None, class_names=None, title="", bins=10,
                          density=True, ncols=4):
    """One histogram panel per feature (row of ``D`` (D, N)), classes overlaid."""
    D, L, K = _labelled(D, L)
    fnames = _names(feature_names, D.shape[0], "feature")
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, axes = _grid(D.shape[0], ncols)
    for i, ax in enumerate(axes[: D.shape[0]]):
        edges = _bin_edges(D[i], bins)  # the same bins for every class
        for k in np.unique(L):
            ax.hist(D[i, L == k], bins=edges, density=density, alpha=0.45, color=colors[k],
                    edgecolor=colors[k], label=cnames[k])
        ax.set_xlabel(fnames[i])
        ax.set_ylabel("density" if density else "count")
    fig.suptitle(title)
    fig.tight_layout()
    _figure_legend(fig, axes[0])
    return fig


@_course_style
def plot_pair_scatter(D, L, *, feature_names=None, class_names=None, title="", bins=10):
    """The D x D grid of pairwise scatter plots, per-class histograms on the diagonal."""
    D, L, K = _labelled(D, L)
    n = D.shape[0]
    fnames = _names(feature_names, n, "feature")
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, axes = plt.subplots(n, n, figsize=(2.6 * n, 2.4 * n), squeeze=False)
    for i in range(n):
        edges = _bin_edges(D[i], bins)  # the same bins for every class
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
    fig.suptitle(title)
    fig.tight_layout()
    _figure_legend(fig, axes[0, 0])
    return fig


@_course_style
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


@_course_style
def plot_gaussian_fit_1d(x, mu, var, *, xlabel, title="", label="data", bins=25, ax=None,
                         color=None):
    """Histogram of the samples ``x`` (N,) with the density of N(mu, var) over it."""
    x = _check_series(np.ravel(np.asarray(x, dtype=float)), "x", what="the samples")
    mu, var = _scalar(mu, "mu"), _scalar(var, "var")
    if not var > 0:
        raise ValueError(f"var must be a positive variance, got {var!r}")
    fig, ax = _fig_ax(ax, (5, 3.6))
    heights, _, _ = ax.hist(x, bins=bins, density=True, alpha=0.45, color=color,
                            label=f"{label} (histogram)")
    span = x.max() - x.min()
    grid = np.linspace(x.min() - 0.25 * span, x.max() + 0.25 * span, 400)
    pdf = np.exp(-0.5 * np.log(2 * np.pi * var) - 0.5 * (grid - mu) ** 2 / var)
    ax.plot(grid, pdf, color=color or "k", lw=2,
            label=rf"ML Gaussian $\mu$={mu:.3g}, $\sigma^2$={var:.3g}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density")
    ax.set_title(title)
    # headroom above the bars and the curve for the two-line legend, so that it covers neither
    ax.set_ylim(0, 1.45 * max(float(np.max(heights)), float(pdf.max())))
    ax.legend(loc="upper center")
    return fig


@_course_style
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
    _check_callable(logpdf, "logpdf", "logpdf(X, k) -> (M,) log-densities")
    levels = check_int(levels, "levels", low=1)
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, ax = _fig_ax(ax, (5.5, 4.5))
    XX, YY = _grid_2d(D, 0.15, 200)
    grid = np.vstack([XX.ravel(), YY.ravel()])
    for k in range(K):
        ax.scatter(D[0, L == k], D[1, L == k], s=10, alpha=0.6, color=colors[k], label=cnames[k])
        logZ = np.asarray(logpdf(grid, k), dtype=float)
        if logZ.shape != (grid.shape[1],):
            raise ValueError(f"logpdf(X, {k}) returned shape {logZ.shape} for X of shape "
                             f"{grid.shape}; expected ({grid.shape[1]},), one log-density per "
                             f"column")
        logZ = logZ.reshape(XX.shape)
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


@_course_style
def plot_decision_regions(D, L, predict, *, class_names=None, xlabel="x1", ylabel="x2",
                          title="", ax=None, resolution=300, legend=True):
    """Scatter of 2-D data ``D`` (2, N) over the regions a classifier assigns to each class.

    Parameters
    ----------
    predict : callable ``predict(X) -> (M,)`` integer labels for the columns of X (2, M).
    legend : bool
        The class legend, in one row below the x label; False for all but one panel of a row of
        panels with the same classes (their legends would overlap).
    """
    D, L, K = _labelled(D, L, min_rows=2)
    _check_callable(predict, "predict", "predict(X) -> (M,) integer labels")
    resolution = check_int(resolution, "resolution", low=2)
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, ax = _fig_ax(ax, (5.5, 4.5))
    XX, YY = _grid_2d(D, 0.1, resolution)
    Z = np.asarray(predict(np.vstack([XX.ravel(), YY.ravel()])))
    if Z.shape != (XX.size,):
        raise ValueError(f"predict(X) returned shape {Z.shape} for X of shape (2, {XX.size}); "
                         f"expected ({XX.size},), one label per column")
    Z = Z.reshape(XX.shape)
    cmap = matplotlib.colors.ListedColormap(colors)
    ax.contourf(XX, YY, Z, levels=np.arange(K + 1) - 0.5, cmap=cmap, alpha=0.15)
    if K > 1:  # the boundaries lie between consecutive labels
        ax.contour(XX, YY, Z, levels=np.arange(K - 1) + 0.5, colors="k", linewidths=1)
    for k in range(K):
        ax.scatter(D[0, L == k], D[1, L == k], s=8, alpha=0.7, color=colors[k], label=cnames[k])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if legend:  # below the x label in one row: the regions fill the plot, a corner hides points
        _legend_below(ax, fig, ncol=K)
    return fig


def _legend_below(ax, fig, ncol: int, fontsize=None) -> None:
    below = matplotlib.transforms.offset_copy(ax.transAxes, fig=fig, y=-40, units="points")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below, ncol=ncol,
              borderaxespad=0.0, fontsize=fontsize)


@_course_style
def plot_curves(x, ys: dict, *, xlabel, ylabel, title="", logx=False, marker="o", ax=None,
                hlines: dict | None = None, legend: str = "auto"):
    """Line plot of several named curves over a common x; ``hlines`` adds labelled horizontal
    reference lines (the y-limits include them).

    ``x`` (n,) holds numbers or category labels (strings); ``ys`` maps each name to n values.
    ``legend``: ``"right"`` (right of the axes), ``"below"`` (under the x label),
    ``"inside"`` (where matplotlib finds the fewest points), or ``"auto"``: right of the axes
    for a figure of its own, inside for a panel of a grid.
    """
    legend = _check_legend(legend, ("auto", "right", "below", "inside"))
    x = list(x) if not isinstance(x, np.ndarray) else x
    if np.ndim(x) != 1 or len(x) == 0:
        raise ValueError(f"x must be a non-empty 1-D sequence, got shape {np.shape(x)}")
    for name, y in _check_mapping(ys, "ys", "(n,) values").items():
        _check_series(y, f"ys[{name!r}]", len(x))
    for name, y in _check_mapping(hlines or {}, "hlines", "a number").items():
        _scalar(y, f"hlines[{name!r}]")
    if logx and np.any(np.asarray(x, dtype=float) <= 0):
        raise ValueError("logx=True needs x > 0, got a value <= 0")
    own = ax is None
    fig, ax = _fig_ax(ax, (5.5, 4))
    for name, y in ys.items():
        ax.plot(x, y, marker=marker, ms=4, label=name)
    for name, y in (hlines or {}).items():
        ax.axhline(y, ls="--", lw=1, color="gray", label=name)
        ax.update_datalim([(ax.dataLim.x0, _scalar(y, name))])  # inside the y-limits, not on
    ax.autoscale_view()                                         # the axis (axhline would be)
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
    if legend == "auto":
        legend = "right" if own else "inside"
    _place_legend(ax, fig, legend)
    return fig


def _check_legend(legend, options: tuple[str, ...]) -> str:
    if legend not in options:
        raise ValueError(f"legend must be one of {', '.join(map(repr, options))}, got {legend!r}")
    return legend


def _place_legend(ax, fig, where: str, ncol: int = 1) -> None:
    """The legend of ``ax``: right of the axes or below them (over no data), or inside."""
    if where == "right":
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    elif where == "below":
        _legend_below(ax, fig, ncol=ncol, fontsize=8)
    else:
        ax.legend()


@_course_style
def plot_bars(categories, values: dict, *, xlabel, ylabel, title="", ax=None):
    """Grouped bar chart: one group per category, one bar per named series."""
    categories = list(categories)
    for name, v in _check_mapping(values, "values", "(n,) bar heights").items():
        _check_series(v, f"values[{name!r}]", len(categories))
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


@_course_style
def plot_images(D, *, shape=(28, 28), titles=None, ncols=10, title="", cmap="gray_r",
                symmetric=False):
    """Show the columns of ``D`` (H*W, N) as H x W images, e.g. MNIST digits or PCA directions.

    ``symmetric=True`` centres the colour map on 0 (for directions with signed components).
    """
    D = np.asarray(D, dtype=float)
    D = D.reshape(-1, 1) if D.ndim == 1 else D  # one image given as a vector
    if len(shape) != 2 or any(isinstance(v, bool) or int(v) != v or v < 1 for v in shape):
        raise ValueError(f"shape must be (height, width) in pixels, got {shape!r}")
    ncols = check_int(ncols, "ncols", low=1)
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


@_course_style
def plot_roc(curves: dict, title="", ax=None):
    """ROC curves: true positive rate against false positive rate, one line per named system.

    Parameters
    ----------
    curves : dict
        ``name -> (Pfp, Ptp)``, two arrays of one length with rates in [0, 1], e.g.
        ``mlpr.evaluation.roc_points(scores, L)``.

    The axes extend 2% beyond [0, 1] so that a curve along an edge (a perfect system runs up
    the left edge and along the top) stays visible.
    """
    pairs = {name: _check_pair(v, f"curves[{name!r}]", "Pfp", "Ptp", "roc_points(scores, L)")
             for name, v in _check_mapping(curves, "curves", "(Pfp, Ptp)").items()}
    fig, ax = _fig_ax(ax, (4.8, 4.6))
    for i, (name, (pfp, ptp)) in enumerate(pairs.items()):
        ax.plot(pfp, ptp, lw=1.5, color=_PALETTE[i % len(_PALETTE)], label=name, clip_on=False)
    ax.plot([0, 1], [0, 1], ls=":", lw=1, color="gray", label="chance")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    ax.set_xlabel(r"false positive rate $P_{fp}$")
    ax.set_ylabel(r"true positive rate $P_{tp} = 1 - P_{fn}$")
    ax.set_title(title)
    ax.legend(loc="lower right")
    return fig


@_course_style
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

    A system that has no point inside the visible square is still named in the legend, with the
    reason it draws nothing: "perfect separation" when one threshold gives Pfn = Pfp = 0 (its
    curve runs along the rates 0, off the probit axes), otherwise "outside the plotted range".
    Tick labels are thinned so that neighbouring labels do not overlap; the legend stands right
    of the axes, over no curve.
    """
    from scipy.special import ndtri

    lo, hi = (float(v) for v in lim)
    if not 0.0 < lo < hi < 1.0:
        raise ValueError(f"lim must satisfy 0 < lim[0] < lim[1] < 1, got {lim!r}")
    pairs = {name: _check_pair(v, f"curves[{name!r}]", "Pfp", "Pfn", "det_points(scores, L)")
             for name, v in _check_mapping(curves, "curves", "(Pfp, Pfn)").items()}
    eps = 1e-9

    def probit(p):
        return ndtri(np.clip(np.asarray(p, dtype=float), eps, 1.0 - eps))

    fig, ax = _fig_ax(ax, (4.8, 4.6))
    for i, (name, (pfp, pfn)) in enumerate(pairs.items()):
        inside = (pfp >= lo) & (pfp <= hi) & (pfn >= lo) & (pfn <= hi)
        if np.any((pfp == 0) & (pfn == 0)):
            name = f"{name}: perfect separation, no curve"
        elif not np.any(inside):
            name = f"{name}: outside the plotted range"
        ax.plot(probit(pfp), probit(pfn), lw=1.5, color=_PALETTE[i % len(_PALETTE)], label=name)
    ax.plot(probit([lo, hi]), probit([lo, hi]), ls=":", lw=1, color="gray",
            label=r"$P_{fn} = P_{fp}$ (EER)")
    # ticks at least 1/9 of the axis apart, so that their labels do not overlap
    ticks, gap = [], (probit(hi) - probit(lo)) / 9
    for t in (t for t in _DET_TICKS if lo <= t <= hi):
        if not ticks or probit(t) - probit(ticks[-1]) >= gap:
            ticks.append(t)
    labels = [f"{100 * t:g}" for t in ticks]
    ax.set_xticks(probit(ticks), labels=labels)
    ax.set_yticks(probit(ticks), labels=labels)
    ax.set_xlim(probit(lo), probit(hi))
    ax.set_ylim(probit(lo), probit(hi))
    ax.set_aspect("equal")
    ax.set_xlabel(r"false positive rate $P_{fp}$ (%)")
    ax.set_ylabel(r"false negative (miss) rate $P_{fn}$ (%)")
    ax.set_title(title)
    # right of the axes: DET curves fill the square from corner to corner
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    return fig


@_course_style
def plot_bayes_error(prior_log_odds, curves: dict, title="", ax=None, ylim=None):
    """Bayes error plot: actual (solid) and minimum (dashed) normalised DCF against the prior
    log-odds, one colour per system, as in the notes.

    Parameters
    ----------
    prior_log_odds : array_like, shape (P,)
    curves : dict
        ``name -> (actDCF, minDCF)``, arrays of shape (P,), e.g. the last two outputs of
        ``mlpr.evaluation.bayes_error_curve(llr, L, prior_log_odds)``.
    ylim : (float, float), optional
        The visible DCF range. By default every curve is shown whole: from just below 0 (so
        that a curve at DCF 0, a perfect system, stays visible above the axis) to 5% above the
        largest value (an actDCF can exceed 1).

    The legend stands right of the axes, one entry per system (its colour) and one per line
    style (solid actDCF, dashed minDCF), so that it covers no curve.
    """
    x = _check_series(prior_log_odds, "prior_log_odds", what="prior log-odds")
    pairs = {name: _check_pair(v, f"curves[{name!r}]", "actDCF", "minDCF",
                               "bayes_error_curve(llr, L, prior_log_odds)[1:]", rates=False)
             for name, v in _check_mapping(curves, "curves", "(actDCF, minDCF)").items()}
    for name, (act, _) in pairs.items():
        if act.shape != x.shape:
            raise ValueError(f"curves[{name!r}] has curves of shape {act.shape} but "
                             f"prior_log_odds has shape {x.shape}; expected {x.shape}")
    fig, ax = _fig_ax(ax, (5.5, 4))
    for i, (name, (act, mindcf)) in enumerate(pairs.items()):
        color = _PALETTE[i % len(_PALETTE)]
        ax.plot(x, act, ls="-", lw=1.5, color=color, label=f"{name}: actDCF")
        ax.plot(x, mindcf, ls="--", lw=1.5, color=color, label=f"{name}: minDCF")
    if ylim is None:
        top = 1.05 * max([0.05] + [float(np.max(c)) for p in pairs.values() for c in p])
        ylim = (-0.02 * top, top)
    ax.set_xlim(x.min(), x.max())
    ax.set_ylim(*ylim)
    ax.set_xlabel(r"prior log-odds $\log \frac{\tilde\pi}{1 - \tilde\pi}$")
    ax.set_ylabel("normalised DCF")
    ax.set_title(title)
    systems = [matplotlib.lines.Line2D([], [], color=_PALETTE[i % len(_PALETTE)], lw=1.5,
                                       label=name) for i, name in enumerate(pairs)]
    styles = [matplotlib.lines.Line2D([], [], color="k", ls=ls, lw=1.5, label=lab)
              for ls, lab in (("-", "actDCF"), ("--", "minDCF"))]
    ax.legend(handles=systems + styles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0.0)
    return fig


@_course_style
def plot_confusion_matrix(M, class_names=None, title="", ax=None, cmap="Blues"):
    """Heat map of a confusion matrix with the count in each cell.

    Parameters
    ----------
    M : array_like, shape (K, K)
        ``M[i, j]`` = samples predicted i whose true class is j (`mlpr.evaluation.
        confusion_matrix`): rows (y axis) are predicted classes, columns (x axis) true classes.
    """
    M = np.asarray(M)
    if M.ndim != 2 or M.shape[0] != M.shape[1] or M.shape[0] == 0:
        raise ValueError(f"M must be a square (K, K) confusion matrix, got shape {M.shape}")
    if not np.issubdtype(M.dtype, np.number) or np.issubdtype(M.dtype, np.bool_):
        raise TypeError(f"M must hold numbers (counts), got dtype {M.dtype}")
    if not np.all(np.isfinite(M)) or np.any(M < 0):
        raise ValueError("M must hold finite non-negative counts (or rates)")
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


# --- chapter 8: support vector machines

__all__ += ["plot_svm_2d", "plot_one_vs_rest_regions"]


def _on_grid(f, XX: np.ndarray, YY: np.ndarray) -> np.ndarray:
    return np.asarray(f(np.vstack([XX.ravel(), YY.ravel()])))


@_course_style
def plot_svm_2d(D, L, scores, *, support=None, alpha=None, C=None, class_names=None,
                xlabel="x1", ylabel="x2", title="", ax=None, resolution=200, legend="auto"):
    """A binary classifier on 2-D data: the boundary s(x) = 0, the margins s(x) = -1 and +1
    (dashed, notes eq. 157) and the support vectors circled.

    Parameters
    ----------
    D : array_like, shape (2, N)
    L : array_like, shape (N,)
        Labels 0/1.
    scores : callable
        ``scores(X) -> (M,)`` for X of shape (2, M), e.g. ``model.scores`` of `mlpr.svm`.
    support : array_like of int or bool, optional
        The support vectors (indices or a mask over the N samples).
    alpha, C : array_like, shape (N,), and float, optional
        The dual solution and its bound: the three kinds of training point of the soft-margin
        SVM are then marked apart (KKT conditions, eq. 163-164): alpha = 0 (outside the margin,
        plain), 0 < alpha < C (on the margin, circled) and alpha = C (inside the margin or
        misclassified, crossed). ``support`` is then ignored.
    legend : {"auto", "right", "below", "inside"}
        Where the legend goes; ``"auto"``: right of the axes for a figure of its own, below them
        for a panel of a grid, so that it hides no point.
    """
    legend = _check_legend(legend, ("auto", "right", "below", "inside"))
    D, L, K = _labelled(D, L, min_rows=2)
    _check_callable(scores, "scores", "scores(X) -> (M,) for X of shape (2, M)")
    colors = class_colors(max(K, 2))
    cnames = _names(class_names, max(K, 2), "class")
    fig, ax = _fig_ax(ax, (5.5, 4.5))
    XX, YY = _grid_2d(D, 0.1, resolution)
    S = _on_grid(scores, XX, YY).astype(float).reshape(XX.shape)
    ax.contourf(XX, YY, (S > 0).astype(float), levels=[-0.5, 0.5, 1.5],
                colors=[colors[0], colors[1]], alpha=0.12)
    drawn = [lv for lv in (-1.0, 0.0, 1.0) if S.min() < lv < S.max()]  # inside the box only
    if drawn:
        ax.contour(XX, YY, S, levels=drawn, colors="k",
                   linestyles=["-" if lv == 0 else "--" for lv in drawn],
                   linewidths=[1.4 if lv == 0 else 0.8 for lv in drawn])
    for k in range(K):
        ax.scatter(D[0, L == k], D[1, L == k], s=10, alpha=0.8, color=colors[k],
                   label=cnames[k])
    if alpha is not None:
        a = np.asarray(alpha, dtype=float).reshape(-1)
        if a.size != D.shape[1] or C is None:
            raise ValueError(f"alpha must have one entry per sample ({D.shape[1]}) and C must be "
                             f"given, got {a.size} entries and C={C!r}")
        Cs = np.broadcast_to(np.asarray(C, dtype=float), a.shape)
        tol = 1e-6 * Cs
        on = (a > tol) & (a < Cs - tol)
        bound = a >= Cs - tol
        ax.scatter(D[0, on], D[1, on], s=70, facecolors="none", edgecolors="k", linewidths=0.9,
                   label=f"0 < alpha < C: on the margin ({int(on.sum())})")
        ax.scatter(D[0, bound], D[1, bound], s=60, marker="x", color="k", linewidths=0.9,
                   label=f"alpha = C: inside the margin or misclassified ({int(bound.sum())})")
    elif support is not None:
        sv = np.asarray(support)
        ax.scatter(D[0, sv], D[1, sv], s=70, facecolors="none", edgecolors="k", linewidths=0.9,
                   label=f"support vectors ({int(sv.sum()) if sv.dtype == bool else sv.size})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    own = len(fig.axes) == 1
    _place_legend(ax, fig, ("right" if own else "below") if legend == "auto" else legend,
                  ncol=2)
    return fig


@_course_style
def plot_one_vs_rest_regions(D, L, claims, *, class_names=None, xlabel="x1", ylabel="x2",
                             title="", ax=None, resolution=250,
                             region_labels=("no class claims x", "several classes claim x")):
    """The regions of one versus the rest taken literally: where exactly one binary classifier
    claims x (coloured by that class), where none does and where several do (the ambiguous
    regions of the linear-methods notes, grey).

    Parameters
    ----------
    claims : callable
        ``claims(X) -> (K, M)`` booleans for X of shape (2, M), e.g.
        `mlpr.multiclass.OneVsRest.claims`.
    region_labels : (str or None, str or None)
        The legend's names of the white (no class) and grey (several classes) regions; None
        leaves one out (e.g. ``(None, "the votes tie")`` for the classes with most votes of one
        versus one, which always name at least one class).
    """
    D, L, K = _labelled(D, L, min_rows=2)
    _check_callable(claims, "claims", "claims(X) -> (K, M) booleans for X of shape (2, M)")
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, ax = _fig_ax(ax, (5.5, 4.5))
    XX, YY = _grid_2d(D, 0.1, resolution)
    Cl = _on_grid(claims, XX, YY).astype(bool)
    if Cl.shape != (K, XX.size):
        raise ValueError(f"claims returned shape {Cl.shape}, expected ({K}, {XX.size}) for "
                         f"{K} classes")
    n = Cl.sum(axis=0)
    region = np.where(n == 1, np.argmax(Cl, axis=0), np.where(n == 0, K, K + 1))
    cmap = matplotlib.colors.ListedColormap(colors + ["#ffffff", "#555555"])
    ax.contourf(XX, YY, region.reshape(XX.shape), levels=np.arange(K + 3) - 0.5, cmap=cmap,
                alpha=0.25)
    for k in range(K):
        ax.scatter(D[0, L == k], D[1, L == k], s=10, alpha=0.8, color=colors[k], label=cnames[k])
    none_label, several_label = region_labels
    if none_label:
        ax.fill([], [], color="#ffffff", ec="gray", label=none_label)
    if several_label:
        ax.fill([], [], color="#555555", alpha=0.25, label=several_label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    _legend_below(ax, fig, ncol=min(K, 3), fontsize=8)  # below the axes: no point hidden
    return fig


# --- chapter 9: Gaussian mixture models

__all__ += ["plot_gmm_1d", "plot_lbg_history", "plot_em_runs", "plot_clusters_2d"]


@_course_style
def plot_gmm_1d(x, gmms: dict, *, xlabel, title="", bins=40, ax=None, truth=None,
                truth_label="generating density"):
    """Histogram of a 1-D sample with the density of each named GMM over it.

    Parameters
    ----------
    x : array_like, shape (N,) or (1, N)
        The sample.
    gmms : dict
        ``{label: gmm}``, each a 1-D `mlpr.gmm.GMM` (or the course's list of (w, mu, C)).
    truth : GMM, optional
        The density the sample was drawn from, drawn dashed in black under ``truth_label``.

    The legend lies right of the axes, over no bar or curve.
    """
    x = check_data(np.reshape(np.asarray(x, dtype=float), (1, -1)), "x")
    fig, ax = _fig_ax(ax, (6, 4))
    ax.hist(x[0], bins=bins, density=True, alpha=0.35, color="gray", label="sample (histogram)")
    span = x.max() - x.min()
    grid = np.linspace(x.min() - 0.1 * span, x.max() + 0.1 * span, 600)
    for label, gmm in gmms.items():
        ax.plot(grid, np.exp(logpdf_GMM(grid[None, :], gmm)), lw=1.6, label=label)
    if truth is not None:
        ax.plot(grid, np.exp(logpdf_GMM(grid[None, :], truth)), color="k", ls="--", lw=1.4,
                label=truth_label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density")
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    return fig


@_course_style
def plot_lbg_history(histories, *, title="", ax=None, label="average log-likelihood"):
    """EM's average training log-likelihood against the iteration across LBG, splits marked.

    Parameters
    ----------
    histories : list of list of float
        ``train_gmm_lbg(..., return_history=True)[1]``: the ML Gaussian's value, then one EM
        history per split (its first value is the split model's).
    """
    fig, ax = _fig_ax(ax, (6, 4))
    y, marks = [], []
    for k, h in enumerate(histories):
        if k:
            marks.append((len(y), 2**k))
        y.extend(float(v) for v in h)
    ax.plot(np.arange(len(y)), y, marker=".", ms=3, lw=1, label=label)
    for i, (it, m) in enumerate(marks):
        ax.axvline(it - 0.5, color="gray", ls=":", lw=1, label="LBG split" if i == 0 else None)
        ax.annotate(f"{m}", (it, y[it]), textcoords="offset points", xytext=(3, -12),
                    fontsize=8, color="gray")
    ax.set_xlabel("EM iteration (all LBG stages; the number of components after each split)")
    ax.set_ylabel("average log-likelihood (nats per sample)")
    ax.set_title(title)
    ax.legend(loc="lower right")
    return fig


@_course_style
def plot_em_runs(runs: dict, *, title="", ax=None, notes: dict | None = None,
                 ylabel="average log-likelihood (nats per sample)", logy=False):
    """A quantity (by default the average log-likelihood) against the EM iteration for several
    named runs of any lengths; ``notes`` ``{name: text}`` annotates a run's last point (e.g.
    where it collapsed)."""
    fig, ax = _fig_ax(ax, (6, 4))
    if logy:
        ax.set_yscale("log")
    for name, h in runs.items():
        h = np.asarray(h, dtype=float)
        line, = ax.plot(np.arange(h.size), h, marker="o", ms=3, label=name)
        if notes and name in notes:
            ax.annotate(notes[name], (h.size - 1, h[-1]), textcoords="offset points",
                        xytext=(-8, 0), ha="right", va="center", fontsize=8,
                        color=line.get_color())  # left of the last point, inside the axes
    ax.set_xlabel("EM iteration")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="best")
    return fig


@_course_style
def plot_clusters_2d(D, gamma, *, means=None, gmm=None, xlabel="x1", ylabel="x2", title="",
                     ax=None, levels=8):
    """2-D samples coloured by their clusters: hard (one-hot ``gamma``, e.g. K-means) or soft
    (responsibilities, each point a mix of its components' colours), with the means marked and,
    given a GMM, contours of its log-density.

    Parameters
    ----------
    D : array_like, shape (2, N)
    gamma : array_like, shape (M, N)
        Non-negative cluster memberships of each sample, columns summing to one.
    means : array_like, shape (2, M), optional
        Cluster centres (crosses).
    gmm : GMM or list of (w, mu, C), optional
        Mixture whose log-density contours are drawn.
    """
    D = check_data(D, "D")
    if D.shape[0] != 2:
        raise ValueError(f"D has shape {D.shape}: this plot needs 2 rows (features), one column "
                         f"per sample")
    G = check_data(gamma, "gamma")
    if G.shape[1] != D.shape[1]:
        raise ValueError(f"gamma has shape {G.shape}, expected (M, {D.shape[1]}), one column "
                         f"per sample of D")
    M = G.shape[0]
    rgb = np.array([matplotlib.colors.to_rgb(c) for c in class_colors(M)])  # (M, 3)
    fig, ax = _fig_ax(ax, (5.5, 4.5))
    ax.scatter(D[0], D[1], s=14, c=np.clip(G.T @ rgb, 0, 1), alpha=0.85)
    if gmm is not None:
        XX, YY = _grid_2d(D, 0.15, 200)
        Z = logpdf_GMM(np.vstack([XX.ravel(), YY.ravel()]), gmm).reshape(XX.shape)
        ax.contour(XX, YY, Z, levels=np.linspace(Z.max() - 6, Z.max(), levels), colors="k",
                   linewidths=0.6, alpha=0.6)
    if means is not None:
        mu = check_data(means, "means", n_features=2)
        for c in range(mu.shape[1]):
            ax.scatter(mu[0, c], mu[1, c], marker="X", s=110, color=class_colors(M)[c % M],
                       edgecolors="k", linewidths=0.8, label=f"centre {c}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if means is not None:
        ax.legend(loc="best", fontsize=8)
    return fig


# --- short notes (lecture 10)

__all__ += ["plot_linear_boundaries_2d", "plot_hyperplane_geometry",
            "plot_projection_histograms"]


def _hyperplane(wb, name: str) -> tuple[np.ndarray, float]:
    """A pair (w, b) of a 2-D linear discriminant, w a non-zero 2-vector."""
    if not isinstance(wb, (tuple, list)) or len(wb) != 2:
        raise ValueError(f"{name} must be a pair (w, b) of a 2-vector w and a number b, got "
                         f"{type(wb).__name__}")
    w = check_vector(wb[0], 2, f"{name} w").ravel()
    if not np.any(w):
        raise ValueError(f"{name} w is the zero vector: w^T x + b = 0 is not a line")
    return w, check_real(wb[1], f"{name} b")


def _draw_line(ax, w: np.ndarray, b: float, through: np.ndarray, length: float, **kw) -> None:
    """The line w^T x + b = 0 through the point of it nearest ``through``, ``length`` long."""
    p0 = project_on_hyperplane(through, w, b).ravel()
    d = np.array([-w[1], w[0]]) / np.linalg.norm(w)  # along the line
    ends = np.stack([p0 - 0.5 * length * d, p0 + 0.5 * length * d])
    ax.plot(ends[:, 0], ends[:, 1], **kw)


@_course_style
def plot_linear_boundaries_2d(D, L, boundaries: dict, *, class_names=None, xlabel="x1",
                              ylabel="x2", title="", ax=None):
    """Scatter of 2-D data with linear decision boundaries w^T x + b = 0 and their normals w.

    Parameters
    ----------
    D : array_like, shape (2, N)
    L : array_like, shape (N,)
    boundaries : dict
        name -> (w, b), w of shape (2,); each boundary is drawn across the data with its unit
        normal w / ||w|| as an arrow, from the boundary's point nearest the data centre towards
        the side it assigns to class 1 (w^T x + b > 0).
    """
    D, L, K = _labelled(D, L, min_rows=2)
    lines = {name: _hyperplane(wb, f"boundaries[{name!r}]")
             for name, wb in _check_mapping(boundaries, "boundaries", "(w, b)").items()}
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    lo, hi = D.min(axis=1), D.max(axis=1)
    ratio = float((hi[1] - lo[1]) / max(hi[0] - lo[0], np.finfo(float).tiny))
    fig, ax = _fig_ax(ax, (7.0, float(np.clip(7.0 * ratio + 1.8, 3.5, 8.0))))
    for k in range(K):
        ax.scatter(D[0, L == k], D[1, L == k], s=8, alpha=0.5, color=colors[k], label=cnames[k])
    centre, size = 0.5 * (lo + hi), float(np.linalg.norm(hi - lo))
    for i, (name, (w, b)) in enumerate(lines.items()):
        color = _PALETTE[(K + i) % len(_PALETTE)]
        _draw_line(ax, w, b, centre, 2 * size, color=color, lw=1.6, label=f"{name}: boundary")
        p0 = project_on_hyperplane(centre, w, b).ravel()
        u = 0.25 * float(np.min(hi - lo)) * w / np.linalg.norm(w)
        ax.annotate("", xy=p0 + u, xytext=p0, annotation_clip=False,
                    arrowprops={"arrowstyle": "->", "color": color, "lw": 1.6})
    margin = 0.08 * (hi - lo)
    ax.set_xlim(lo[0] - margin[0], hi[0] + margin[0])
    ax.set_ylim(lo[1] - margin[1], hi[1] + margin[1])
    ax.set_aspect("equal")  # so that each normal w looks perpendicular to its boundary
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    # below the x label: lines cross the whole plot, any corner would hide points
    below = matplotlib.transforms.offset_copy(ax.transAxes, fig=fig, y=-40, units="points")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below, ncol=2,
              fontsize=8, borderaxespad=0.0)
    return fig


@_course_style
def plot_hyperplane_geometry(w, b, X, *, xlabel="x1", ylabel="x2", title="", ax=None):
    """The geometry of a linear discriminant y(x) = w^T x + b in 2-D (notes 003, Fig. 6.1).

    Draws the boundary y(x) = 0, the normal w (from the boundary's point nearest the origin),
    the offset -b / ||w|| of the boundary from the origin, and for each column x of ``X``
    (2, n) the segment to its projection x_perp on the boundary, labelled with its signed
    distance r = y(x) / ||w||.
    """
    w, b = _hyperplane((w, b), "(w, b)")
    X = check_data(X, "X", n_features=2, allow_1d=True)
    r = signed_distance(X, w, b)
    Xp = project_on_hyperplane(X, w, b)
    offset = hyperplane_offset(w, b)
    u = w / np.linalg.norm(w)
    foot = offset * u  # the boundary's point nearest the origin
    pts = np.hstack([X, Xp, np.zeros((2, 1)), foot[:, None], (foot + u)[:, None]])
    lo, hi = pts.min(axis=1), pts.max(axis=1)
    pad = 0.25 * max(float(np.max(hi - lo)), 1.0)
    lo, hi = lo - pad, hi + pad
    fig, ax = _fig_ax(ax, (5.5, 5))
    XX, YY = np.meshgrid(np.linspace(lo[0], hi[0], 200), np.linspace(lo[1], hi[1], 200))
    side = (w[0] * XX + w[1] * YY + b > 0).astype(float)  # class 1 where y(x) > 0 (eq. 128)
    ax.contourf(XX, YY, side, levels=[-0.5, 0.5, 1.5], colors=[_PALETTE[0], _PALETTE[1]],
                alpha=0.1)
    _draw_line(ax, w, b, np.zeros(2), 4 * float(np.linalg.norm(hi - lo)), color="k", lw=1.5,
               label="y(x) = 0")
    ax.annotate("", xy=foot + u, xytext=foot, arrowprops={"arrowstyle": "->", "lw": 1.8})
    ax.text(*(foot + 1.05 * u), "w", fontsize=11)
    ax.plot([0, foot[0]], [0, foot[1]], ls=":", color="gray",
            label=f"offset -b/||w|| = {offset:.3g}")
    ax.plot(0, 0, "k+", ms=10)
    for i in range(X.shape[1]):
        ax.plot([X[0, i], Xp[0, i]], [X[1, i], Xp[1, i]], "--", color=_PALETTE[3], lw=1)
        ax.plot(*X[:, i], "o", color=_PALETTE[3], ms=5)
        ax.plot(*Xp[:, i], "o", mfc="none", color=_PALETTE[3], ms=5)
        mid = 0.5 * (X[:, i] + Xp[:, i])
        ax.text(*mid, f" r = {r[i]:.3g}", fontsize=9, color=_PALETTE[3])
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="best", fontsize=8)
    return fig


@_course_style
def plot_projection_histograms(y, L, *, class_names=None, xlabel="w^T x", title="", bins=20,
                               ax=None):
    """Per-class histograms of a 1-D projection y = w^T x (N,), on the same bins."""
    y = _check_series(y, "y", what="the projections w^T x")
    Y, L, K = _labelled(y[None, :], L)
    cnames = _names(class_names, K, "class")
    colors = class_colors(K)
    fig, ax = _fig_ax(ax, (5, 3.6))
    edges = _bin_edges(y, bins)
    for k in range(K):
        ax.hist(y[L == k], bins=edges, alpha=0.45, color=colors[k], edgecolor=colors[k],
                label=cnames[k])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("count")
    ax.set_title(title)
    ax.legend(loc="best", fontsize=8)
    return fig
