"""Variant of course_style.py: the class loop runs over range(L.max()), which stops before the last
label: the last class has no model (the classes are 0..L.max(); eq. 59 for each class)

The functions below replace course_style.py's of the same name; the rest of the module
is course_style.py's (benchmarks/bench_mistakes.py assembles it).
"""


def Gau_MVG_ML_estimates(D, L):
    hParams = {}
    # MISTAKE: range(L.max()) stops before the last label: the classes are 0..L.max()
    for lab in range(L.max()):
        hParams[int(lab)] = compute_mu_C(D[:, L == lab])
    return hParams
