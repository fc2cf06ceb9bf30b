"""Tests of the plot helpers of the short notes (lecture 10): what each figure draws, read back
from the matplotlib artists, and every error path."""

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest

from mlpr.plots import (
    figure_grid,
    plot_hyperplane_geometry,
    plot_linear_boundaries_2d,
    plot_projection_histograms,
    save_figure,
)


def _data():
    rng = np.random.default_rng(0)
    D = np.hstack([rng.normal(size=(2, 30)), rng.normal(size=(2, 30)) + [[3.0], [1.0]]])
    return D, np.repeat([0, 1], 30)


def _line_on(line, w, b):
    """The points of a drawn line satisfy w^T x + b = 0."""
    x, y = line.get_data()
    return np.allclose(w[0] * np.asarray(x) + w[1] * np.asarray(y) + b, 0.0, atol=1e-9)


def test_linear_boundaries_draws_each_line_on_its_hyperplane(tmp_path):
    D, L = _data()
    bounds = {"nearest mean": (np.array([3.0, 1.0]), -5.0), "LDA": (np.array([1.0, -2.0]), 0.5)}
    fig = plot_linear_boundaries_2d(D, L, bounds, title="t")
    ax = fig.axes[0]
    drawn = {ln.get_label(): ln for ln in ax.get_lines()}
    for name, (w, b) in bounds.items():
        assert _line_on(drawn[f"{name}: boundary"], w, b)
    # one arrow (annotation) per boundary, pointing along +w
    arrows = [c for c in ax.get_children() if isinstance(c, matplotlib.text.Annotation)]
    assert len(arrows) == 2
    for arrow, (w, _) in zip(arrows, bounds.values()):
        d = np.asarray(arrow.xy) - np.asarray(arrow.xyann)
        assert d @ w > 0 and abs(d[0] * w[1] - d[1] * w[0]) < 1e-9 * np.linalg.norm(d)
    assert ax.get_title() == "t"
    assert save_figure(fig, tmp_path / "b.png").stat().st_size > 1000


def test_hyperplane_geometry_marks_distances():
    w, b = np.array([3.0, 4.0]), -5.0
    X = np.array([[3.0, 0.0], [4.0, -1.0]])
    fig = plot_hyperplane_geometry(w, b, X, title="Fig. 6.1")
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert " r = 4" in texts and " r = -1.8" in texts  # (9 + 16 - 5) / 5, (0 - 4 - 5) / 5
    labels = [ln.get_label() for ln in ax.get_lines()]
    assert "offset -b/||w|| = 1" in labels
    (boundary,) = [ln for ln in ax.get_lines() if ln.get_label() == "y(x) = 0"]
    assert _line_on(boundary, w, b)
    plt.close(fig)


def test_projection_histograms_counts_every_sample():
    D, L = _data()
    y = np.array([1.0, -2.0]) @ D
    fig, axes = figure_grid(1, 1)
    plot_projection_histograms(y, L, class_names=["a", "b"], ax=axes[0, 0], bins=12)
    patches = axes[0, 0].patches
    assert sum(p.get_height() for p in patches) == y.size
    assert [t.get_text() for t in axes[0, 0].get_legend().get_texts()] == ["a", "b"]
    plt.close(fig)


def test_errors():
    D, L = _data()
    with pytest.raises(TypeError, match="boundaries must be a dict"):
        plot_linear_boundaries_2d(D, L, [(np.ones(2), 0.0)])
    with pytest.raises(ValueError, match="must be a pair"):
        plot_linear_boundaries_2d(D, L, {"x": np.ones(2)})
    with pytest.raises(ValueError, match="zero vector"):
        plot_linear_boundaries_2d(D, L, {"x": (np.zeros(2), 1.0)})
    with pytest.raises(ValueError, match=r"w has shape \(3,\)"):
        plot_linear_boundaries_2d(D, L, {"x": (np.ones(3), 1.0)})
    with pytest.raises(ValueError, match="did you mean D.T"):
        plot_linear_boundaries_2d(D.T, L, {"x": (np.ones(2), 1.0)})
    with pytest.raises(ValueError, match="zero vector"):
        plot_hyperplane_geometry([0.0, 0.0], 1.0, D)
    with pytest.raises(TypeError, match="b must be a real number"):
        plot_hyperplane_geometry([1.0, 0.0], "1", D)
    with pytest.raises(ValueError, match="X has 3 features"):
        plot_hyperplane_geometry([1.0, 0.0], 1.0, np.ones((3, 4)))
    with pytest.raises(ValueError, match=r"y must be a 1-D array"):
        plot_projection_histograms(D, L)
    with pytest.raises(ValueError, match="L has 59 labels"):
        plot_projection_histograms(D[0], L[:-1])
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes"):
        plot_projection_histograms(D[0], L, ax="left")
    plt.close("all")


def test_one_vs_rest_regions_name_their_regions_and_keep_legends_below():
    import matplotlib.pyplot as plt
    import numpy as np

    from mlpr.plots import plot_decision_regions, plot_one_vs_rest_regions

    rng = np.random.default_rng(0)
    L = np.repeat([0, 1, 2], 20)
    D = rng.normal(size=(2, 60)) + np.array([[0, 3, 1.5], [0, 0, 3]])[:, L]
    claims = lambda X: np.stack([X[0] < 1, X[0] > 2, X[1] > 2])  # noqa: E731
    fig = plot_one_vs_rest_regions(D, L, claims, region_labels=(None, "the votes tie"))
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "the votes tie" in texts and "no class claims x" not in texts
    # the legend sits below the axes, where it hides no point
    fig.canvas.draw()
    legend_box = fig.axes[0].get_legend().get_window_extent()
    assert legend_box.y1 < fig.axes[0].get_window_extent().y0
    plt.close(fig)
    fig = plot_decision_regions(D, L, lambda X: (X[0] > 1.5).astype(int), legend=False)
    assert fig.axes[0].get_legend() is None
    plt.close(fig)
