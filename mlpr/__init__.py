"""mlpr: machine learning and pattern recognition from scratch, with numpy, scipy and matplotlib.

Data are (D, N) matrices, one column per sample; labels are 1-D integer arrays 0..K-1. Import
functions from their modules, e.g. ``from mlpr.gaussian import logpdf_GAU_ND``.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
