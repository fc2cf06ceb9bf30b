"""Tests of mlpr.plots: what each figure draws is read back from the matplotlib artists and
compared with an independent route (mlpr.evaluation for ROC / DET / Bayes error / confusion
matrices, scipy.stats.norm for probit axes and Gaussian densities, hand-computed boxes, counts,
bar positions and contour levels)."""

import matplotlib

matplotlib.use("Agg")

import warnings  # noqa: E402

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PathCollection  # noqa: E402
from matplotlib.contour import ContourSet  # noqa: E402
from scipy.stats import multivariate_normal, norm  # noqa: E402

from mlpr.evaluation import (  # noqa: E402
    act_dcf,
    bayes_error_curve,
    confusion_matrix,
    det_points,
    min_dcf,
    roc_points,
)
from mlpr.gaussian import compute_mu_C  # noqa: E402
from mlpr.plots import (  # noqa: E402
    _fig_ax,
    _grid_2d,
    class_colors,
    figure_grid,
    plot_bars,
    plot_bayes_error,
    plot_class_histograms,
    plot_confusion_matrix,
    plot_curves,
    plot_decision_regions,
    plot_det,
    plot_gaussian_contours_2d,
    plot_gaussian_fit_1d,
    plot_images,
    plot_pair_scatter,
    plot_roc,
    plot_scatter_2d,
    save_figure,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def two_class_2d(seed, n=30):
    """Two Gaussian blobs in 2-D, n samples each, labels 0 then 1."""
    rng = np.random.default_rng(seed)
    D = np.hstack([rng.normal(size=(2, n)), rng.normal(size=(2, n)) + [[3.0], [1.0]]])
    L = np.repeat([0, 1], n)
    return D, L


def binary_scores(seed, n=200, shift=1.5):
    rng = np.random.default_rng(seed)
    L = (rng.random(n) < 0.4).astype(int)
    L[:2] = [0, 1]
    return rng.normal(size=n) + shift * L, L


def scatter_offsets(ax):
    """The (N, 2) point coordinates of each scatter of ``ax``, in drawing order."""
    return [c.get_offsets() for c in ax.collections if isinstance(c, PathCollection)]


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def figure_legend_texts(fig):
    """The entries of the figure's one legend, which must lie right of every panel."""
    assert len(fig.legends) == 1 and all(ax.get_legend() is None for ax in fig.axes)
    fig.canvas.draw()
    right = max(ax.get_window_extent().x1 for ax in fig.axes if ax.get_visible())
    assert fig.legends[0].get_window_extent().x0 >= right
    return [t.get_text() for t in fig.legends[0].get_texts()]


def tick_texts(labels):
    return [t.get_text() for t in labels]


# ------------------------------------------------------------------------------------------------
# private helpers, colours, figure grids, saving


def test_grid_2d_spans_padded_box():
    D = np.array([[0.0, 2.0, 1.0], [-1.0, 3.0, 0.0]])  # x in [0, 2], y in [-1, 3]
    XX, YY = _grid_2d(D, 0.25, 5)
    assert XX.shape == YY.shape == (5, 5)
    # margins: 0.25 * 2 = 0.5 in x, 0.25 * 4 = 1 in y
    assert np.allclose(XX[0], [-0.5, 0.25, 1.0, 1.75, 2.5], rtol=0, atol=1e-15)
    assert np.allclose(YY[:, 0], [-2.0, -0.5, 1.0, 2.5, 4.0], rtol=0, atol=1e-15)
    assert np.all(XX == XX[0]) and np.all(YY == YY[:, :1])  # x varies along columns only
    XX0, YY0 = _grid_2d(D, 0.0, 3)
    assert (XX0.min(), XX0.max(), YY0.min(), YY0.max()) == (0.0, 2.0, -1.0, 3.0)


def test_fig_ax_reuses_given_axes_or_makes_one():
    fig0, ax0 = plt.subplots()
    n_figs = len(plt.get_fignums())
    fig, ax = _fig_ax(ax0, (9, 9))
    assert fig is fig0 and ax is ax0
    assert len(plt.get_fignums()) == n_figs  # no new figure
    fig, ax = _fig_ax(None, (3.0, 2.0))
    assert fig is not fig0 and ax.figure is fig and fig.axes == [ax]
    assert np.allclose(fig.get_size_inches(), [3.0, 2.0])
    assert len(plt.get_fignums()) == n_figs + 1


def test_the_course_style_holds_inside_the_functions_only(tmp_path):
    """COURSE_STYLE applies to what mlpr.plots draws and saves, and nowhere else: rcParams are
    the same after a call (and after a call that raises), a figure drawn with plt meanwhile
    keeps matplotlib's settings, and an ax passed in gets the course's grid and spines."""
    from mlpr.plots import COURSE_STYLE, save_figure

    before = dict(plt.rcParams)
    fig = plot_curves([1, 2], {"a": [1.0, 2.0]}, xlabel="x", ylabel="y", title="t")
    ax = fig.axes[0]
    assert ax.title.get_fontsize() == COURSE_STYLE["axes.titlesize"] == 11
    assert ax.xaxis.label.get_fontsize() == 10
    assert ax.xaxis._major_tick_kw["gridOn"] and not ax.spines["top"].get_visible()
    assert ax.get_legend().get_texts()[0].get_fontsize() == COURSE_STYLE["legend.fontsize"]
    # saved at the course's resolution (120 dpi) with a tight bounding box
    save_figure(fig, tmp_path / "f.png")
    assert dict(plt.rcParams) == before
    with pytest.raises(ValueError):
        plot_curves([1, 2], {"a": [1.0, np.nan]}, xlabel="x", ylabel="y")
    assert dict(plt.rcParams) == before
    plain = plt.figure(figsize=(4, 3))
    pax = plain.add_subplot()
    pax.set_title("plain")
    assert pax.title.get_fontsize() == 12.0  # matplotlib's "large", not the course's 11
    assert not pax.xaxis._major_tick_kw.get("gridOn", False) and pax.spines["top"].get_visible()
    plain.savefig(tmp_path / "plain.png")  # matplotlib's own dpi (100) and bounding box
    from PIL import Image

    with Image.open(tmp_path / "f.png") as im, Image.open(tmp_path / "plain.png") as plain_im:
        assert np.allclose(im.info["dpi"], COURSE_STYLE["savefig.dpi"], atol=0.01)
        assert np.allclose(plain_im.info["dpi"], 100, atol=0.01)
        assert plain_im.size == (400, 300)  # 4 x 3 inches at 100 dpi, untrimmed
        assert im.size != (5.5 * 120, 4 * 120)  # the drawing's bounding box (tight), not 5.5 x 4
    plt.close(plain)
    # an ax made outside the style: the course's grid and spines, set on the axes
    fig2, ax2 = plt.subplots()
    plot_roc({"s": ([0.0, 0.5, 1.0], [0.0, 0.8, 1.0])}, ax=ax2)
    assert ax2.xaxis._major_tick_kw["gridOn"] and not ax2.spines["right"].get_visible()
    assert ax2.xaxis.get_gridlines()[0].get_alpha() == COURSE_STYLE["grid.alpha"]
    plt.close(fig2)


def test_class_colors_distinct_and_stable():
    for K in (1, 2, 3, 10):
        cols = class_colors(K)
        assert len(cols) == K
        rgb = {mcolors.to_rgb(c) for c in cols}  # valid matplotlib colours
        assert len(rgb) == K
    assert class_colors(3) == class_colors(7)[:3]  # class k keeps its colour whatever K
    assert class_colors(0) == []


def test_figure_grid_shape_size_title():
    fig, axes = figure_grid(2, 3, title="grid", width=2.0, height=1.5)
    assert isinstance(axes, np.ndarray) and axes.shape == (2, 3)
    assert len(fig.axes) == 6 and all(a.figure is fig for a in axes.ravel())
    assert np.allclose(fig.get_size_inches(), [6.0, 3.0])
    assert fig._suptitle.get_text() == "grid"
    _, axes = figure_grid(1, 1)
    assert axes.shape == (1, 1)  # never squeezed
    fig, _ = figure_grid(1, 2)
    assert fig._suptitle is None


def test_save_figure_writes_png_and_closes(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    target = tmp_path / "a" / "b" / "fig.png"
    out = save_figure(fig, str(target))  # str accepted, parents created
    assert out == target and target.is_file()
    assert target.read_bytes()[:8] == PNG_MAGIC
    assert fig.number not in plt.get_fignums()

    fig2, _ = plt.subplots()
    out2 = save_figure(fig2, tmp_path / "keep.png", close=False)
    assert out2.read_bytes()[:8] == PNG_MAGIC
    assert fig2.number in plt.get_fignums()


# ------------------------------------------------------------------------------------------------
# data exploration


def test_plot_class_histograms_panels_and_counts():
    rng = np.random.default_rng(0)
    D = rng.normal(size=(5, 40))
    L = np.repeat([0, 1, 2], [10, 14, 16])
    names = [f"f{i}" for i in range(5)]
    fig = plot_class_histograms(D, L, feature_names=names, class_names=["a", "b", "c"],
                                title="hist", bins=6, density=False, ncols=4)
    assert len(fig.axes) == 8  # 2 x 4 grid
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == 5
    assert [ax.get_xlabel() for ax in visible] == names
    assert all(ax.get_ylabel() == "count" for ax in visible)
    assert figure_legend_texts(fig) == ["a", "b", "c"]  # one legend, right of the panels
    assert fig._suptitle.get_text() == "hist"
    for i, ax in enumerate(visible):
        bars = ax.patches
        assert len(bars) == 3 * 6  # 6 bins per class
        for k in range(3):  # heights of class k's bars add up to its number of samples
            heights = [b.get_height() for b in bars[6 * k : 6 * (k + 1)]]
            assert sum(heights) == np.sum(L == k)
        # the same 6 equal bins over the feature's whole range for every class (interior edges
        # raised by 1e-9 of a bin, see the centring test below)
        edges = np.linspace(D[i].min(), D[i].max(), 7)
        for k in range(3):
            lefts = [b.get_x() for b in bars[6 * k : 6 * (k + 1)]]
            rights = [b.get_x() + b.get_width() for b in bars[6 * k : 6 * (k + 1)]]
            assert np.allclose(lefts, edges[:-1], rtol=0, atol=1e-8)
            assert np.allclose(rights, edges[1:], rtol=0, atol=1e-8)


def test_plot_class_histograms_density_and_default_names():
    rng = np.random.default_rng(1)
    D = rng.normal(size=(2, 30))
    L = np.repeat([0, 1], 15)
    fig = plot_class_histograms(D, L, bins=5)
    assert len(fig.axes) == 2  # ncols shrinks to the number of features
    assert [ax.get_xlabel() for ax in fig.axes] == ["feature 0", "feature 1"]
    assert fig.axes[0].get_ylabel() == "density"
    assert figure_legend_texts(fig) == ["class 0", "class 1"]
    bars = fig.axes[0].patches
    for k in range(2):  # each class histogram is a density: area 1
        area = sum(b.get_height() * b.get_width() for b in bars[5 * k : 5 * (k + 1)])
        assert area == pytest.approx(1.0, rel=1e-12)


def test_labelled_plots_explain_transposed_data():
    D, L = np.zeros((3, 4)), np.array([0, 1, 0, 1])
    for plot in (plot_class_histograms, plot_pair_scatter, plot_scatter_2d):
        with pytest.raises(ValueError, match="did you mean D.T"):
            plot(D.T, L)
    with pytest.raises(ValueError, match="did you mean D.T"):
        plot_decision_regions(np.zeros((2, 4)).T, L, lambda X: np.zeros(X.shape[1], int))
    with pytest.raises(ValueError, match=r"D has shape \(1, 4\): this plot needs at least 2 rows"):
        plot_gaussian_contours_2d(np.zeros((1, 4)), L, lambda X, k: np.zeros(X.shape[1]),
                                  xlabel="x", ylabel="y")


def test_histograms_skip_absent_classes_without_warnings():
    D, L = np.arange(8.0).reshape(2, 4), np.array([0, 2, 0, 2])  # class 1 has no sample
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = plot_class_histograms(D, L)
        pair = plot_pair_scatter(D, L)
    assert len(fig.axes[0].patches) == 2 * 10  # two classes, ten bars each
    assert len(pair.axes[0].patches) == 2 * 10


def test_plot_gaussian_fit_1d_takes_the_column_estimates_of_compute_mu_C():
    x = np.random.default_rng(3).normal(1.0, 2.0, size=200)
    mu, C = compute_mu_C(x.reshape(1, -1))  # shapes (1, 1) and (1, 1)
    line = plot_gaussian_fit_1d(x, mu, C, xlabel="x").axes[0].lines[0]
    np.testing.assert_allclose(line.get_ydata(),
                               norm.pdf(line.get_xdata(), mu.item(), np.sqrt(C.item())),
                               rtol=1e-12)
    with pytest.raises(ValueError, match=r"mu must be a scalar .* got shape \(2,\)"):
        plot_gaussian_fit_1d(x, np.zeros(2), 1.0, xlabel="x")


def test_plot_class_histograms_errors():
    D = np.zeros((3, 4))
    L = np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match="2 names given for 3 features"):
        plot_class_histograms(D, L, feature_names=["a", "b"])
    with pytest.raises(ValueError, match="1 names given for 2 class"):
        plot_class_histograms(D, L, class_names=["a"])


def test_plot_pair_scatter_grid_labels_points():
    rng = np.random.default_rng(2)
    D = rng.normal(size=(3, 24))
    L = np.repeat([0, 1], 12)
    names = ["x", "y", "z"]
    fig = plot_pair_scatter(D, L, feature_names=names, class_names=["neg", "pos"], bins=4)
    axes = np.array(fig.axes).reshape(3, 3)
    assert len(fig.axes) == 9
    assert [ax.get_xlabel() for ax in axes[-1]] == names
    assert [ax.get_ylabel() for ax in axes[:, 0]] == names
    assert all(ax.get_xlabel() == "" for ax in axes[:-1].ravel())
    assert all(ax.get_ylabel() == "" for ax in axes[:, 1:].ravel())
    assert figure_legend_texts(fig) == ["neg", "pos"]
    for i in range(3):
        for j in range(3):
            pts = scatter_offsets(axes[i, j])
            if i == j:  # diagonal: one 4-bin histogram per class, no scatter
                assert pts == [] and len(axes[i, j].patches) == 8
                continue
            assert len(pts) == 2
            for k in range(2):  # x = feature j, y = feature i
                assert np.array_equal(pts[k], D[[j, i]][:, L == k].T)
    with pytest.raises(ValueError, match="2 names given for 3 features"):
        plot_pair_scatter(D, L, feature_names=["a", "b"])


def test_plot_scatter_2d_points_colours_labels():
    D, L = two_class_2d(3, n=10)
    D3 = np.vstack([D, np.ones(20)])  # extra rows are ignored
    fig = plot_scatter_2d(D3, L, class_names=["A", "B"], xlabel="u", ylabel="v", title="t")
    ax = fig.axes[0]
    pts = scatter_offsets(ax)
    assert len(pts) == 2
    for k in range(2):
        assert np.array_equal(pts[k], D[:, L == k].T)
    facecolors = [ax.collections[k].get_facecolor()[0][:3] for k in range(2)]
    assert np.allclose(facecolors, [mcolors.to_rgb(c) for c in class_colors(2)])
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()) == ("u", "v", "t")
    assert legend_texts(ax) == ["A", "B"]

    # one row: the points lie on y = 0; drawing on a given axes
    fig0, ax0 = plt.subplots()
    fig1 = plot_scatter_2d(D[:1], L, ax=ax0)
    assert fig1 is fig0
    pts = scatter_offsets(ax0)
    assert np.array_equal(pts[1][:, 0], D[0, L == 1]) and np.all(pts[1][:, 1] == 0)
    with pytest.raises(ValueError, match="1 names given for 2 class"):
        plot_scatter_2d(D, L, class_names=["A"])


# ------------------------------------------------------------------------------------------------
# densities


def test_plot_gaussian_fit_1d_density_matches_scipy():
    rng = np.random.default_rng(4)
    x = rng.normal(2.0, 0.5, size=(1, 80))  # a (1, N) row is accepted
    mu, var = float(x.mean()), float(x.var())
    fig = plot_gaussian_fit_1d(x, mu, var, xlabel="length [cm]", title="t", label="setosa",
                               bins=8)
    ax = fig.axes[0]
    line = ax.lines[0]
    gx, gy = line.get_xdata(), line.get_ydata()
    span = x.max() - x.min()
    assert len(gx) == 400
    assert gx[0] == pytest.approx(x.min() - 0.25 * span) and gx[-1] == pytest.approx(
        x.max() + 0.25 * span)
    assert np.allclose(gy, norm.pdf(gx, loc=mu, scale=np.sqrt(var)), rtol=1e-12, atol=0)
    # the plotted curve integrates to the Gaussian mass over the plotted range
    mass = norm.cdf(gx[-1], mu, np.sqrt(var)) - norm.cdf(gx[0], mu, np.sqrt(var))
    assert np.trapezoid(gy, gx) == pytest.approx(mass, rel=1e-4)
    # the histogram is a density over the samples
    bars = ax.patches
    assert len(bars) == 8
    assert sum(b.get_height() * b.get_width() for b in bars) == pytest.approx(1.0, rel=1e-12)
    assert ax.get_xlabel() == "length [cm]" and ax.get_ylabel() == "density"
    labels = legend_texts(ax)
    assert labels[0] == "setosa (histogram)" and f"{mu:.3g}" in labels[1]
    # the legend sits above the tallest bar and the curve's peak, covering neither
    fig.canvas.draw()
    top = max(max(b.get_height() for b in bars), gy.max())
    assert ax.get_legend().get_window_extent().y0 > ax.transData.transform((0, top))[1]

    fig0, ax0 = plt.subplots()
    assert plot_gaussian_fit_1d(x.ravel(), mu, var, xlabel="x", ax=ax0, color="C2") is fig0
    assert mcolors.to_hex(ax0.lines[0].get_color()) == mcolors.to_hex("C2")


def test_plot_gaussian_contours_2d_levels():
    D, L = two_class_2d(5, n=25)
    params = [(D[:, L == k].mean(axis=1), np.cov(D[:, L == k], bias=True)) for k in range(2)]
    seen = []

    def logpdf(X, k):
        seen.append((X.copy(), k))
        return multivariate_normal(*params[k]).logpdf(X.T)

    fig = plot_gaussian_contours_2d(D, L, logpdf, class_names=["a", "b"],
                                    xlabel="x1", ylabel="x2", title="t", levels=4)
    ax = fig.axes[0]
    assert [k for _, k in seen] == [0, 1]
    X = seen[0][0]
    assert X.shape == (2, 200 * 200)
    margin = 0.15 * (D.max(axis=1) - D.min(axis=1))
    assert np.allclose(X.min(axis=1), D.min(axis=1) - margin, rtol=0, atol=1e-12)
    assert np.allclose(X.max(axis=1), D.max(axis=1) + margin, rtol=0, atol=1e-12)
    contours = [c for c in ax.collections if isinstance(c, ContourSet)]
    assert len(contours) == 2
    for k, cs in enumerate(contours):
        peak = multivariate_normal(*params[k]).logpdf(X.T).max()
        # r = 2, 1.5, 1, 0.5  ->  r^2 / 2 = 2, 1.125, 0.5, 0.125
        assert np.allclose(cs.levels, peak - np.array([2.0, 1.125, 0.5, 0.125]), rtol=1e-12)
        # the grid peak is close to the density's true maximum at the mean
        true_peak = multivariate_normal(*params[k]).logpdf(params[k][0])
        assert true_peak - 0.05 < peak <= true_peak + 1e-12
    pts = scatter_offsets(ax)
    for k in range(2):
        assert np.array_equal(pts[k], D[:, L == k].T)
    assert legend_texts(ax) == ["a", "b"]
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()) == ("x1", "x2", "t")

    # default: 6 contours, r = 3, ..., 0.5
    fig = plot_gaussian_contours_2d(D, L, logpdf, xlabel="x1", ylabel="x2")
    cs = [c for c in fig.axes[0].collections if isinstance(c, ContourSet)][0]
    peak = multivariate_normal(*params[0]).logpdf(X.T).max()
    assert np.allclose(peak - cs.levels, [4.5, 3.125, 2.0, 1.125, 0.5, 0.125], rtol=1e-12)


# ------------------------------------------------------------------------------------------------
# classifiers and curves


def test_plot_decision_regions_predict_grid():
    D, L = two_class_2d(6, n=15)
    calls = []

    def predict(X):
        calls.append(X.copy())
        return (X[0] > 1.5).astype(int)

    res = 23
    fig = plot_decision_regions(D, L, predict, class_names=["left", "right"], xlabel="a",
                                ylabel="b", title="t", resolution=res)
    assert len(calls) == 1
    X = calls[0]
    assert X.shape == (2, res**2)
    margin = 0.1 * (D.max(axis=1) - D.min(axis=1))
    assert np.allclose(X.min(axis=1), D.min(axis=1) - margin, rtol=0, atol=1e-12)
    assert np.allclose(X.max(axis=1), D.max(axis=1) + margin, rtol=0, atol=1e-12)
    assert len(np.unique(X[0])) == res and len(np.unique(X[1])) == res
    ax = fig.axes[0]
    contours = [c for c in ax.collections if isinstance(c, ContourSet)]
    assert len(contours) == 2
    filled = [c for c in contours if c.filled][0]
    assert np.allclose(filled.levels, [-0.5, 0.5, 1.5])  # one band per class
    boundary = [c for c in contours if not c.filled][0]
    np.testing.assert_allclose(boundary.levels, [0.5])  # K - 1 = 1 boundary level
    # the boundary x = 1.5 lies in the plotted region: its segments are near x = 1.5
    verts = np.vstack([p.vertices for p in boundary.get_paths() if len(p.vertices)])
    dx = (X[0].max() - X[0].min()) / (res - 1)
    assert np.all(np.abs(verts[:, 0] - 1.5) <= dx)
    pts = scatter_offsets(ax)
    for k in range(2):
        assert np.array_equal(pts[k], D[:, L == k].T)
    assert legend_texts(ax) == ["left", "right"]
    for size in [(5.5, 4.5), (3.0, 2.5), (8.0, 7.0)]:  # the legend lies below the x label
        fig.set_size_inches(*size)
        fig.canvas.draw()
        assert ax.get_legend().get_window_extent().y1 <= ax.xaxis.label.get_window_extent().y0
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()) == ("a", "b", "t")

    fig0, ax0 = plt.subplots()
    assert plot_decision_regions(D, L, predict, ax=ax0, resolution=5) is fig0
    assert calls[-1].shape == (2, 25)
    with pytest.raises(ValueError, match="1 names given for 2 class"):
        plot_decision_regions(D, L, predict, class_names=["a"], resolution=5)


def test_plot_curves_lines_and_hlines():
    x = np.array([1.0, 2.0, 3.0])
    fig = plot_curves(x, {"a": [1, 2, 3], "b": [3, 2, 1]}, xlabel="x", ylabel="y", title="t",
                      hlines={"ref": 1.5})
    ax = fig.axes[0]
    assert len(ax.lines) == 3
    assert np.array_equal(ax.lines[0].get_xdata(), x)
    assert np.array_equal(ax.lines[1].get_ydata(), [3, 2, 1])
    assert np.array_equal(ax.lines[2].get_ydata(), [1.5, 1.5]) and ax.lines[2].get_ls() == "--"
    assert legend_texts(ax) == ["a", "b", "ref"]
    assert ax.get_xscale() == "linear"
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()) == ("x", "y", "t")
    fig.canvas.draw()  # a figure of its own: the legend right of the axes
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1


def test_plot_curves_hlines_inside_the_y_limits():
    # a reference below every curve (lecture 06: MVG's EER under the LR curves) must not sit on
    # the x axis, nor one above them on the top edge
    for ref in (0.5, 10.0):
        ax = plot_curves(["0", "1e-05", "0.001"], {"LR": [4.5, 4.4, 4.2]}, xlabel="lambda",
                         ylabel="EER", hlines={"MVG": ref}).axes[0]
        lo, hi = ax.get_ylim()
        assert lo < ref < hi and lo < 4.2 and 4.5 < hi
        margin = 0.02 * (hi - lo)
        assert ref - lo > margin and hi - ref > margin


def test_plot_curves_logx_ticks():
    few = [0.001, 0.01, 0.1, 1.0, 10.0]
    ax = plot_curves(few, {"err": [5, 4, 3, 4, 5]}, xlabel="lambda", ylabel="err",
                     logx=True).axes[0]
    assert ax.get_xscale() == "log"
    assert np.allclose(ax.get_xticks(), few)  # ticks at the measured points
    assert tick_texts(ax.get_xticklabels()) == ["0.001", "0.01", "0.1", "1", "10"]
    assert len(ax.xaxis.get_minorticklocs()) == 0

    many = np.logspace(-3, 3, 13)  # more than 12 points: plain-number tick formatter
    ax = plot_curves(many, {"err": np.ones(13)}, xlabel="C", ylabel="err", logx=True).axes[0]
    assert ax.get_xscale() == "log"
    fmt = ax.xaxis.get_major_formatter()
    assert fmt(1000.0, 0) == "1000" and fmt(0.01, 0) == "0.01"
    assert ax.xaxis.get_minor_formatter()(20.0, 0) == "20"

    fig0, ax0 = plt.subplots()
    assert plot_curves([1, 2], {"a": [0, 1]}, xlabel="x", ylabel="y", ax=ax0) is fig0
    assert len(ax0.lines) == 1


def test_plot_bars_positions_and_heights():
    values = {"s1": [1.0, 2.0, 3.0], "s2": [4.0, 5.0, 6.0]}
    fig = plot_bars(["A", "B", 7], values, xlabel="c", ylabel="v", title="t")
    ax = fig.axes[0]
    bars = ax.patches
    assert len(bars) == 6
    assert [b.get_height() for b in bars] == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    centres = np.array([b.get_x() + b.get_width() / 2 for b in bars]).reshape(2, 3)
    # two series of width 0.4 each side of each category's position
    assert np.allclose(centres, [[-0.2, 0.8, 1.8], [0.2, 1.2, 2.2]])
    assert np.allclose([b.get_width() for b in bars], 0.4)
    assert np.allclose(ax.get_xticks(), [0, 1, 2])
    assert tick_texts(ax.get_xticklabels()) == ["A", "B", "7"]
    assert legend_texts(ax) == ["s1", "s2"]
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()) == ("c", "v", "t")

    ax = plot_bars(["x", "y"], {"only": [2, 3]}, xlabel="c", ylabel="v").axes[0]
    assert np.allclose([b.get_x() + b.get_width() / 2 for b in ax.patches], [0, 1])
    assert np.allclose([b.get_width() for b in ax.patches], 0.8)


def test_plot_images_pixels_titles_colour_range():
    rng = np.random.default_rng(7)
    D = rng.normal(size=(6, 7))  # seven 2 x 3 images
    fig = plot_images(D, shape=(2, 3), titles=list("abcdefg"), ncols=3, title="imgs")
    assert len(fig.axes) == 9  # 3 x 3 grid, two spare axes
    with_images = [ax for ax in fig.axes if ax.images]
    assert len(with_images) == 7
    for i, ax in enumerate(with_images):
        assert np.array_equal(ax.images[0].get_array(), D[:, i].reshape(2, 3))
        assert ax.get_title() == "abcdefg"[i]
    assert not any(ax.axison for ax in fig.axes)
    assert fig._suptitle.get_text() == "imgs"

    fig = plot_images(D[:, :2], shape=(3, 2), symmetric=True)
    assert len(fig.axes) == 2  # ncols shrinks to the number of images
    for i, ax in enumerate(fig.axes):
        im = ax.images[0]
        v = np.abs(D[:, i]).max()
        assert im.get_clim() == pytest.approx((-v, v))  # colour map centred on 0
        assert im.get_cmap().name == "RdBu_r"
    im = plot_images(np.zeros((4, 1)), shape=(2, 2), symmetric=True).axes[0].images[0]
    assert im.get_clim() == (-1.0, 1.0)  # an all-zero image does not give vmin = vmax
    with pytest.raises(ValueError, match=r"D has shape \(6, 7\) but images of shape \(4, 4\) "
                                         r"need 16 rows"):
        plot_images(D, shape=(4, 4))
    with pytest.raises(ValueError, match=r"D has shape \(3, 4\).*did you mean D.T\?"):
        plot_images(np.zeros((3, 4)), shape=(2, 2))
    with pytest.raises(ValueError, match="1 titles given for 7 images"):
        plot_images(D, shape=(2, 3), titles=["a"])
    one = plot_images(np.arange(4.0), shape=(2, 2)).axes[0].images[0]  # a vector is one image
    np.testing.assert_array_equal(one.get_array(), [[0, 1], [2, 3]])


# ------------------------------------------------------------------------------------------------
# evaluation: ROC, DET, Bayes error, confusion matrix


def test_plot_roc_draws_roc_points():
    s, L = binary_scores(8)
    curves = {"A": roc_points(s, L), "B": roc_points(-s, L)}
    fig = plot_roc(curves, title="roc")
    ax = fig.axes[0]
    assert len(ax.lines) == 3
    for line, (pfp, ptp) in zip(ax.lines[:2], curves.values()):
        assert np.array_equal(line.get_xdata(), pfp)
        assert np.array_equal(line.get_ydata(), ptp)
    # independent check of the first curve: one point per threshold, by explicit decisions
    pfp = [np.mean(s[L == 0] >= t) for t in [np.inf, *np.sort(s)[::-1][:-1], -np.inf]]
    ptp = [np.mean(s[L == 1] >= t) for t in [np.inf, *np.sort(s)[::-1][:-1], -np.inf]]
    assert np.allclose(ax.lines[0].get_xdata(), pfp, rtol=0, atol=1e-15)
    assert np.allclose(ax.lines[0].get_ydata(), ptp, rtol=0, atol=1e-15)
    chance = ax.lines[2]
    assert list(chance.get_xdata()) == [0, 1] and list(chance.get_ydata()) == [0, 1]
    # 2% beyond [0, 1]: a curve along an edge stays visible
    assert ax.get_xlim() == (-0.02, 1.02) and ax.get_ylim() == (-0.02, 1.02)
    assert legend_texts(ax) == ["A", "B", "chance"]
    assert ax.lines[0].get_color() != ax.lines[1].get_color()
    assert ax.get_title() == "roc"

    fig0, ax0 = plt.subplots()
    assert plot_roc({"A": curves["A"]}, ax=ax0) is fig0 and len(ax0.lines) == 2


def test_plot_det_probit_axes():
    rng = np.random.default_rng(9)
    n, dprime = 3000, 2.0
    s = np.concatenate([rng.normal(size=n), rng.normal(size=n) + dprime])
    L = np.repeat([0, 1], n)
    pfp, pfn = det_points(s, L)
    fig = plot_det({"gauss": (pfp, pfn)}, title="det")
    ax = fig.axes[0]
    x, y = ax.lines[0].get_xdata(), ax.lines[0].get_ydata()
    inner = (pfp > 0) & (pfp < 1)
    assert np.allclose(x[inner], norm.ppf(pfp[inner]), rtol=1e-12, atol=1e-12)
    inner = (pfn > 0) & (pfn < 1)
    assert np.allclose(y[inner], norm.ppf(pfn[inner]), rtol=1e-12, atol=1e-12)
    # rates 0 and 1 are clipped to finite values far outside the visible range
    assert np.all(np.isfinite(x)) and np.all(np.isfinite(y))
    assert x[0] < norm.ppf(1e-6) and x[-1] > norm.ppf(1 - 1e-6)
    # equal-variance Gaussian classes give the straight line probit(Pfn) = -d' - probit(Pfp)
    mid = (pfp > 0.02) & (pfp < 0.98) & (pfn > 0.02) & (pfn < 0.98)
    assert np.mean(x[mid] + y[mid]) == pytest.approx(-dprime, abs=0.1)
    # diagonal, limits and ticks in probit units, labelled in percent
    diag = ax.lines[1]
    assert np.allclose(diag.get_xdata(), norm.ppf([0.001, 0.5]))
    assert np.allclose(diag.get_ydata(), diag.get_xdata())
    assert np.allclose(ax.get_xlim(), norm.ppf([0.001, 0.5]))
    assert np.allclose(ax.get_ylim(), norm.ppf([0.001, 0.5]))
    # the course's ticks, thinned to at least 1/9 of the axis apart (by hand: probit gaps
    # 0.51, 0.52, 0.41, 0.36, 0.44, 0.59 against 3.09 / 9 = 0.34 on (0.001, 0.5))
    ticks = [0.001, 0.005, 0.02, 0.05, 0.1, 0.2, 0.4]
    assert np.allclose(ax.get_xticks(), norm.ppf(ticks))
    assert np.allclose(ax.get_yticks(), norm.ppf(ticks))
    pct = ["0.1", "0.5", "2", "5", "10", "20", "40"]
    assert tick_texts(ax.get_xticklabels()) == pct
    assert tick_texts(ax.get_yticklabels()) == pct
    assert legend_texts(ax)[0] == "gauss"
    assert ax.get_title() == "det"

    ax = plot_det({}, lim=(0.01, 0.9)).axes[0]
    assert np.allclose(ax.get_xticks(), norm.ppf([0.01, 0.05, 0.2, 0.4, 0.6, 0.8, 0.9]))


def test_plot_det_tick_labels_do_not_overlap():
    for lim in [(0.001, 0.5), (0.0001, 0.99), (0.01, 0.9)]:
        fig = plot_det({}, lim=lim)
        fig.canvas.draw()
        boxes = [t.get_window_extent() for t in fig.axes[0].get_xticklabels()]
        assert len(boxes) >= 4
        for left, right in zip(boxes, boxes[1:]):
            assert left.x1 < right.x0, (lim, left, right)


def test_plot_det_names_a_system_it_cannot_draw():
    L = np.array([0, 0, 0, 1, 1, 1])
    separable = np.array([-3.0, -2.0, -1.0, 1.0, 2.0, 3.0])
    far = (np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 0.7, 0.7, 0.0]))  # no point inside
    fig = plot_det({"perfect": det_points(separable, L), "far": far,
                    "gauss": det_points(*binary_scores(3))})
    names = legend_texts(fig.axes[0])
    assert names[0] == "perfect: perfect separation, no curve"
    assert names[1] == "far: outside the plotted range"
    assert names[2] == "gauss"
    fig.canvas.draw()
    legend = fig.axes[0].get_legend().get_window_extent()
    assert legend.x0 >= fig.axes[0].get_window_extent().x1  # right of the axes, over no curve


@pytest.mark.parametrize("lim", [(0.5, 0.1), (0.0, 0.5), (0.1, 1.0), (0.2, 0.2), (-0.1, 0.5)])
def test_plot_det_lim_errors(lim):
    with pytest.raises(ValueError, match=r"lim must satisfy 0 < lim\[0\] < lim\[1\] < 1"):
        plot_det({}, lim=lim)


def test_plot_bayes_error_draws_bayes_error_curve():
    s, L = binary_scores(10)
    x = np.linspace(-3, 3, 13)
    _, act, mn = bayes_error_curve(s, L, x)
    _, act2, mn2 = bayes_error_curve(0.5 * s - 1, L, x)
    fig = plot_bayes_error(x, {"sys": (act, mn), "miscal": (act2, mn2)}, title="bep")
    ax = fig.axes[0]
    assert len(ax.lines) == 4
    pi = 1 / (1 + np.exp(-x))
    for line in ax.lines:
        assert np.array_equal(line.get_xdata(), x)
    assert np.array_equal(ax.lines[0].get_ydata(), act)
    assert np.array_equal(ax.lines[1].get_ydata(), mn)
    # the plotted values against one act_dcf / min_dcf call per prior
    assert np.allclose(ax.lines[0].get_ydata(), [act_dcf(s, L, p) for p in pi], rtol=1e-12)
    assert np.allclose(ax.lines[1].get_ydata(), [min_dcf(s, L, p) for p in pi], rtol=1e-12)
    assert np.all(ax.lines[1].get_ydata() <= ax.lines[0].get_ydata() + 1e-12)
    assert [ln.get_linestyle() for ln in ax.lines] == ["-", "--", "-", "--"]
    assert ax.lines[0].get_color() == ax.lines[1].get_color() != ax.lines[2].get_color()
    # one legend entry per system (its colour), one per line style
    assert legend_texts(ax) == ["sys", "miscal", "actDCF", "minDCF"]
    top = 1.05 * max(act.max(), mn.max(), act2.max(), mn2.max(), 0.05)
    assert ax.get_xlim() == (-3.0, 3.0) and np.allclose(ax.get_ylim(), (-0.02 * top, top))
    assert ax.get_title() == "bep"
    ax0 = plt.subplots()[1]
    plot_bayes_error(list(x), {"sys": (act, mn)}, ax=ax0, ylim=(0, 2))
    assert ax0.get_ylim() == (0.0, 2.0) and len(ax0.lines) == 2


def test_plot_bayes_error_shows_every_curve_and_its_legend_covers_none():
    x = np.linspace(-4, 4, 9)
    high = np.array([0.3, 0.5, 0.9, 1.2, 1.6, 1.2, 0.9, 0.5, 0.3])  # an actDCF above 1
    zero = np.zeros(9)  # a perfect system: minDCF and actDCF 0
    fig = plot_bayes_error(x, {"miscalibrated": (high, 0.5 * high), "perfect": (zero, zero)})
    ax = fig.axes[0]
    lo, hi = ax.get_ylim()
    assert hi >= high.max() and lo < 0  # the top of the curve and the zero line are visible
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1  # right of the axes, over no curve


# ------------------------------------------------------------------------------------------------
# every helper validates its input at the boundary


def _roc():
    return roc_points(*binary_scores(1))


@pytest.mark.parametrize("call, error, match", [
    (lambda: plot_roc({"a": binary_scores(1)[0]}), ValueError,
     r"curves\['a'\] has shape \(200,\).*pair \(Pfp, Ptp\).*roc_points"),
    (lambda: plot_roc([_roc()]), TypeError, r"curves must be a dict name -> \(Pfp, Ptp\)"),
    (lambda: plot_roc({"a": (np.zeros(3), np.zeros(4))}), ValueError,
     r"curves\['a'\]: Pfp has shape \(3,\) but Ptp has shape \(4,\)"),
    (lambda: plot_roc({"a": (np.zeros(3), np.zeros(3), np.zeros(3))}), ValueError,
     r"curves\['a'\] must be a pair \(Pfp, Ptp\).*length 3"),
    (lambda: plot_roc({"a": (np.array([0.0, 50.0]), np.array([0.0, 100.0]))}), ValueError,
     r"rates must lie in \[0, 1\]"),
    (lambda: plot_roc({"a": (np.array([0.0, np.nan]), np.array([0.0, 1.0]))}), ValueError,
     r"curves\['a'\]\[0\] \(Pfp\) contains NaN"),
    (lambda: plot_det({"a": (np.zeros((2, 2)), np.zeros(2))}), ValueError,
     r"curves\['a'\]\[0\] \(Pfp\) must be a 1-D array.*shape \(2, 2\)"),
    (lambda: plot_det({"a": np.zeros(7)}), ValueError, r"det_points"),
    (lambda: plot_bayes_error(np.linspace(-1, 1, 5), {"a": (np.zeros(4), np.zeros(4))}),
     ValueError, r"curves\['a'\] has curves of shape \(4,\) but prior_log_odds has shape "
                 r"\(5,\)"),
    (lambda: plot_bayes_error(np.zeros((2, 3)), {}), ValueError,
     r"prior_log_odds must be a 1-D array.*shape \(2, 3\)"),
    (lambda: plot_bayes_error([0.0, 1.0], {"a": np.zeros(2)}), ValueError,
     r"curves\['a'\] has shape \(2,\).*\(actDCF, minDCF\)"),
    (lambda: plot_curves([1, 2, 3], {"a": [1.0, 2.0]}, xlabel="x", ylabel="y"), ValueError,
     r"ys\['a'\] has shape \(2,\) but x has 3 points: expected \(3,\)"),
    (lambda: plot_curves([1, 2], [[1.0, 2.0]], xlabel="x", ylabel="y"), TypeError,
     r"ys must be a dict"),
    (lambda: plot_curves([1, 2], {"a": ["p", "q"]}, xlabel="x", ylabel="y"), TypeError,
     r"ys\['a'\] must be a 1-D array of numbers"),
    (lambda: plot_curves([], {}, xlabel="x", ylabel="y"), ValueError,
     r"x must be a non-empty 1-D sequence"),
    (lambda: plot_curves([1, 2], {"a": [1, 2]}, xlabel="x", ylabel="y", hlines={"r": [1, 2]}),
     ValueError, r"hlines\['r'\] must be a scalar"),
    (lambda: plot_curves([0, 1], {"a": [1, 2]}, xlabel="x", ylabel="y", logx=True),
     ValueError, r"logx=True needs x > 0"),
    (lambda: plot_bars(["a", "b"], {"s": [1.0, 2.0, 3.0]}, xlabel="x", ylabel="y"), ValueError,
     r"values\['s'\] has shape \(3,\) but x has 2 points"),
    (lambda: figure_grid(0, 2), ValueError, r"nrows must be >= 1, got 0"),
    (lambda: figure_grid(1, 2.5), TypeError, r"ncols must be an integer"),
    (lambda: figure_grid(1, 1, width=-1), ValueError, r"width must be a positive number"),
    (lambda: class_colors(-1), ValueError, r"K must be >= 0"),
    (lambda: save_figure("not a figure", "x.png"), TypeError, r"fig must be a matplotlib Figure"),
    (lambda: plot_roc({"a": _roc()}, ax="left"), TypeError, r"ax must be a matplotlib Axes"),
    (lambda: plot_gaussian_fit_1d([], 0.0, 1.0, xlabel="x"), ValueError, r"x is empty"),
    (lambda: plot_gaussian_fit_1d([1.0, 2.0], 0.0, 0.0, xlabel="x"), ValueError,
     r"var must be a positive variance, got 0.0"),
    (lambda: plot_gaussian_contours_2d(*two_class_2d(0), "logpdf", xlabel="x", ylabel="y"),
     TypeError, r"logpdf must be a callable"),
    (lambda: plot_gaussian_contours_2d(*two_class_2d(0), lambda X, k: np.zeros(3), xlabel="x",
                                       ylabel="y"),
     ValueError, r"logpdf\(X, 0\) returned shape \(3,\) for X of shape \(2, 40000\)"),
    (lambda: plot_decision_regions(*two_class_2d(0), lambda X: np.zeros((1, X.shape[1])),
                                   resolution=10),
     ValueError, r"predict\(X\) returned shape \(1, 100\).*expected \(100,\)"),
    (lambda: plot_decision_regions(*two_class_2d(0), None), TypeError,
     r"predict must be a callable"),
    (lambda: plot_images(np.zeros((784, 2)), ncols=0), ValueError, r"ncols must be >= 1"),
    (lambda: plot_images(np.zeros((784, 2)), shape=(28,)), ValueError,
     r"shape must be \(height, width\)"),
    (lambda: plot_confusion_matrix(np.array([[1, -1], [0, 2]])), ValueError,
     r"finite non-negative counts"),
    (lambda: plot_confusion_matrix(np.array([["a", "b"], ["c", "d"]])), TypeError,
     r"M must hold numbers"),
])
def test_plot_helpers_validate_their_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_plot_confusion_matrix_cells():
    L = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2])
    pred = np.array([0, 1, 0, 1, 2, 2, 2, 0, 2])
    hand = np.array([[2, 0, 1],  # predicted 0: two true 0, one true 2
                     [1, 1, 0],
                     [0, 1, 3]])
    M = confusion_matrix(pred, L)
    assert np.array_equal(M, hand)
    fig = plot_confusion_matrix(M, class_names=["a", "b", "c"], title="cm")
    ax = fig.axes[0]
    assert len(fig.axes) == 2  # heat map and colour bar
    assert np.array_equal(ax.images[0].get_array(), hand)
    cells = {(round(t.get_position()[1]), round(t.get_position()[0])): t for t in ax.texts}
    assert len(cells) == 9
    for (i, j), t in cells.items():  # text at (x = true class j, y = predicted class i)
        assert t.get_text() == str(hand[i, j])
    # the largest cell is written in white on the dark colour, small ones in black
    assert mcolors.to_hex(cells[2, 2].get_color()) == "#ffffff"
    assert mcolors.to_hex(cells[0, 1].get_color()) == "#000000"
    assert tick_texts(ax.get_xticklabels()) == ["a", "b", "c"]
    assert tick_texts(ax.get_yticklabels()) == ["a", "b", "c"]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("true class", "predicted class")
    assert ax.get_title() == "cm"

    # normalised (non-integer) matrices: three significant digits, default names
    ax = plot_confusion_matrix(hand / hand.sum(axis=0)).axes[0]
    texts = sorted(t.get_text() for t in ax.texts)
    assert "0.667" in texts and "0.333" in texts and "0.75" in texts
    assert tick_texts(ax.get_xticklabels()) == ["class 0", "class 1", "class 2"]


def test_plot_confusion_matrix_errors():
    with pytest.raises(ValueError, match=r"square \(K, K\) confusion matrix, got shape \(2, 3\)"):
        plot_confusion_matrix(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"got shape \(4,\)"):
        plot_confusion_matrix(np.arange(4))
    with pytest.raises(ValueError, match="1 names given for 2 class"):
        plot_confusion_matrix(np.eye(2), class_names=["x"])


def test_class_histograms_are_unchanged_by_centring_grid_data():
    # iris-like measurements on a 0.1 grid: values fall exactly on numpy's bin edges, and the
    # histogram of the centred data must count the same samples per bar as the raw one
    from mlpr.datasets import load_iris

    D, L = load_iris()
    raw = plot_class_histograms(D, L, density=False)
    centred = plot_class_histograms(D - D.mean(axis=1, keepdims=True), L, density=False)
    for ax_raw, ax_c in zip(raw.axes, centred.axes):
        counts = [[p.get_height() for p in c] for c in ax_raw.containers]
        assert counts == [[p.get_height() for p in c] for c in ax_c.containers]
    # without the raised edges they differ: the test would have caught the flaw
    X = D - D.mean(axis=1, keepdims=True)
    assert any(not np.array_equal(np.histogram(D[i, L == k], np.histogram_bin_edges(D[i], 10))[0],
                                  np.histogram(X[i, L == k], np.histogram_bin_edges(X[i], 10))[0])
               for i in range(4) for k in range(3))


def test_plot_svm_2d_marks_the_three_kinds_of_training_point():
    from mlpr.plots import plot_svm_2d
    from mlpr.svm import train_svm_linear

    rng = np.random.default_rng(0)
    L = np.repeat([0, 1], 30)
    D = rng.normal(size=(2, 60)) + 1.2 * (2 * L - 1)
    m = train_svm_linear(D, L, 1.0, K=None)
    fig = plot_svm_2d(D, L, m.scores, alpha=m.alpha, C=1.0)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    on = int(np.sum((m.alpha > 1e-6) & (m.alpha < 1 - 1e-6)))
    bound = int(np.sum(m.alpha >= 1 - 1e-6))
    assert f"0 < alpha < C: on the margin ({on})" in labels
    assert f"alpha = C: inside the margin or misclassified ({bound})" in labels
    assert on > 0 and bound > 0
    plt.close(fig)
    with pytest.raises(ValueError, match="alpha must have one entry per sample \\(60\\)"):
        plot_svm_2d(D, L, m.scores, alpha=m.alpha[:10], C=1.0)


def test_plot_svm_2d_legend_hides_no_point():
    """A figure of its own puts the legend right of the axes, a panel of a grid below them."""
    from mlpr.plots import figure_grid, plot_svm_2d
    from mlpr.svm import train_svm_linear

    rng = np.random.default_rng(1)
    L = np.repeat([0, 1], 20)
    D = rng.normal(size=(2, 40)) + 1.5 * (2 * L - 1)
    m = train_svm_linear(D, L, 1.0, K=None)
    fig = plot_svm_2d(D, L, m.scores, support=m.alpha > 0)
    fig.canvas.draw()
    ax = fig.axes[0]
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1
    plt.close(fig)
    fig, axes = figure_grid(1, 2)
    for ax in axes[0]:
        plot_svm_2d(D, L, m.scores, support=m.alpha > 0, ax=ax, xlabel="x1")
    fig.canvas.draw()
    for ax in axes[0]:
        assert (ax.get_legend().get_window_extent().y1
                <= ax.xaxis.label.get_window_extent().y0)
    plt.close(fig)
    with pytest.raises(ValueError, match="legend must be one of"):
        plot_svm_2d(D, L, m.scores, legend="left")


def test_plot_curves_legend_below_a_panel():
    from mlpr.plots import figure_grid

    fig, axes = figure_grid(1, 1)
    plot_curves([0.1, 1.0, 10.0], {"a": [3, 2, 1], "b": [1, 2, 3]}, xlabel="C", ylabel="e",
                logx=True, ax=axes[0, 0], legend="below")
    fig.canvas.draw()
    ax = axes[0, 0]
    assert ax.get_xscale() == "log"
    assert ax.get_legend().get_window_extent().y1 <= ax.xaxis.label.get_window_extent().y0
    plt.close(fig)


def test_plot_gmm_1d_draws_the_generating_density():
    from mlpr.gmm import GMM
    from mlpr.plots import plot_gmm_1d

    truth = GMM.from_list([(0.5, -2.0, 1.0), (0.5, 2.0, 0.5)])
    x = np.random.default_rng(2).normal(size=200)
    fig = plot_gmm_1d(x, {"fit": truth}, xlabel="x", truth=truth)
    ax = fig.axes[0]
    assert legend_texts(ax) == ["sample (histogram)", "fit", "generating density"]
    line = [ln for ln in ax.get_lines() if ln.get_label() == "generating density"][0]
    assert line.get_linestyle() == "--"
    g = line.get_xdata()
    # the line is the mixture density itself: 0.5 N(-2, 1) + 0.5 N(2, 0.5), closed form
    ref = 0.5 * np.exp(-(g + 2) ** 2 / 2) / np.sqrt(2 * np.pi) + \
        0.5 * np.exp(-(g - 2) ** 2 / 1.0) / np.sqrt(np.pi)
    np.testing.assert_allclose(line.get_ydata(), ref, rtol=1e-10)
    fig.canvas.draw()
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1
    plt.close(fig)
