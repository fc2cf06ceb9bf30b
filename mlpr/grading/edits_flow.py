r"""More edits of the repair search (`mlpr.grading.edits`): where the student's values flow.

Each family is ``(node, scope) -> iterator of (node to replace, replacement, words)``, tried with
the edits that add what the student left out (`mlpr.grading.edits.candidates`):

- a value the function computes and never reads, in place of an expression of a later line
  (`C` computed, then ``eigh(D @ D.T / N)``; ``Gb`` computed, then ``np.append(GW, 0.0)``);
- a name of the function passed on to a call of another function of the module that takes a
  parameter of that name and is not given it (``psiEig=psiEig``);
- a column kept as a column: ``U[:, k:k + 1]`` for ``U[:, k]``, which numpy makes 1-D;
- an order reversed before a slice is taken (``U[:, ::-1][:, 0:m]`` for ``U[:, 0:m]``: the last
  of ``eigh``'s ascending eigenvalues first), and ``np.argsort(x)[::-1]`` (descending);
- the log of a sum of exponentials for a sum (``logsumexp(S, axis=0)`` for ``S.sum(0)``), with
  the name the module imports it under;
- a slice's bound as its step (``x[i::K]`` for ``x[i:K]``).
"""

from __future__ import annotations

import ast
import re

__all__ = ["FLOW", "callees", "logsumexp_name"]


def callees(text: str) -> dict:
    """``{name: (parameter names)}`` of the top-level functions of the module ``text``."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    return {n.name: tuple(a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs)
            for n in tree.body if isinstance(n, ast.FunctionDef)}


def logsumexp_name(text: str) -> str | None:
    """How the module ``text`` can call scipy's logsumexp, or None."""
    if re.search(r"^\s*from\s+scipy\.special\s+import\s+[^\n]*\blogsumexp\b", text, re.M):
        return "logsumexp"
    if re.search(r"^\s*import\s+scipy\.special\b|^\s*import\s+scipy\s*$", text, re.M):
        return "scipy.special.logsumexp"
    if re.search(r"^\s*from\s+scipy\s+import\s+[^\n]*\bspecial\b", text, re.M):
        return "special.logsumexp"
    return None


def _names_in(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _unused(node, scope):
    """A value computed and never read, for an expression of a later line."""
    if not isinstance(node, (ast.BinOp, ast.Call, ast.Subscript, ast.Constant)) or (
            isinstance(node, ast.Constant) and not isinstance(node.value, (int, float))):
        return
    for u in scope.unused:
        if scope.bound.get(u, 10**9) < node.lineno and u not in _names_in(node):
            yield node, ast.Name(u, ast.Load()), f"{u}, computed and never read"


def _passed_on(node, scope):
    """A name of the function passed on to a call that takes it and is not given it."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return
    params = scope.callees.get(node.func.id)
    if not params or any(isinstance(a, ast.Starred) for a in node.args):
        return
    given = set(params[:len(node.args)]) | {k.arg for k in node.keywords}
    for q in params[len(node.args):]:
        if q not in given and q in scope.names and scope.bound.get(q, 10**9) <= node.lineno:
            new = ast.Call(node.func, node.args,
                           node.keywords + [ast.keyword(q, ast.Name(q, ast.Load()))])
            yield node, new, f"`{q}` passed on to {node.func.id}"


def _index(d) -> bool:
    return isinstance(d, (ast.Constant, ast.Name)) and not isinstance(
        getattr(d, "value", 0), (str, bool, type(None))) or (
        isinstance(d, ast.UnaryOp) and isinstance(d.op, ast.USub)
        and isinstance(d.operand, ast.Constant))


def _column(node, scope):
    """``X[:, k:k + 1]`` (2-D) for ``X[:, k]`` (1-D)."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple)
            and isinstance(node.ctx, ast.Load) and len(node.slice.elts) == 2):
        return
    a, b = node.slice.elts
    if isinstance(a, ast.Slice) and a.lower is None and a.upper is None and a.step is None \
            and _index(b):
        negative_one = isinstance(b, ast.UnaryOp) and getattr(b.operand, "value", 0) == 1
        kept = ast.Slice(b, None, None) if negative_one else ast.Slice(
            b, ast.BinOp(b, ast.Add(), ast.Constant(1)), None)
        yield node, ast.Subscript(node.value, ast.Tuple([a, kept], ast.Load()), node.ctx), \
            "kept as a column (2-D)"


def _reversed(node, scope):
    """The order reversed before a slice is taken, or after an ``argsort``."""
    if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) \
            == "argsort":
        rev = ast.Slice(None, None, ast.UnaryOp(ast.USub(), ast.Constant(1)))
        yield node, ast.Subscript(node, rev, ast.Load()), "in descending order"
        return
    if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)):
        return
    dims = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for i, d in enumerate(dims):
        if isinstance(d, ast.Slice) and d.step is None and (d.lower or d.upper) is not None:
            full = [ast.Slice(None, None, None)] * len(dims)
            full[i] = ast.Slice(None, None, ast.UnaryOp(ast.USub(), ast.Constant(1)))
            first = ast.Subscript(node.value, full[0] if len(dims) == 1 else ast.Tuple(
                full, ast.Load()), ast.Load())
            yield node, ast.Subscript(first, node.slice, node.ctx), "reversed first"


def _logsumexp(node, scope):
    """``logsumexp(x, axis)`` for ``np.sum(x, axis)`` and ``x.sum(axis)``."""
    if scope.logsumexp is None or not isinstance(node, ast.Call) or \
            not isinstance(node.func, ast.Attribute) or node.func.attr != "sum":
        return
    owner = node.func.value
    if isinstance(owner, ast.Name) and owner.id in ("np", "numpy"):
        args = node.args
    else:
        args = [owner, *node.args]
    if not args or len(args) > 2:
        return
    new = ast.Call(ast.parse(scope.logsumexp, mode="eval").body, list(args), node.keywords)
    yield node, new, "the log of the sum of the exponentials (logsumexp)"


def _step(node, scope):
    """A slice's bound as its step: ``x[i::K]`` for ``x[i:K]``."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        s = node.slice
        if s.upper is not None and s.step is None:
            yield node, ast.Subscript(node.value, ast.Slice(s.lower, None, s.upper), node.ctx), \
                "the bound as the slice's step"


FLOW = (_unused, _passed_on, _column, _reversed, _logsumexp, _step)
