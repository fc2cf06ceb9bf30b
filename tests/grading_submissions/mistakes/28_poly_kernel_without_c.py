"""Variant of course_style.py: the polynomial kernel leaves out the constant: (x1^T x2)^d instead
of (x1^T x2 + c)^d (eq. 179, c = 1 there)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""


def polyKernel(degree, c):
    def polyKernelFunc(D1, D2):
        # MISTAKE: the polynomial kernel is (x1^T x2 + c)^d (eq. 179): c is missing
        return (D1.T @ D2) ** degree
    return polyKernelFunc
