r"""The edits of the repair search (`mlpr.grading.repair`): each candidate repair of a student's
function, made from the student's own syntax tree and text.

`candidates` yields every single edit of a function, in `EDITS`' order: the edit families below
(each ``(node, scope) -> iterator of (replacement, words)``), the substitutions of a variable for
an alike one, what the student left out (`_factors`, `_added`) and where its values flow
(`mlpr.grading.edits_flow`), the statement moves
(`_statements`), the other substitutions. An expression's edit is spliced into the student's text
(`_splice`: the candidate keeps every other line, comment and line number); a statement moved is
the edited tree, unparsed. Nothing here runs a candidate: that is `mlpr.grading.repair.search`'s,
in the submission's process.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import difflib
from collections.abc import Iterator

from mlpr.grading.edits_flow import FLOW, callees, logsumexp_name

__all__ = ["Edit", "Scope", "candidates", "first_line", "EDITS", "ALIKE"]

@dataclasses.dataclass(frozen=True)
class Edit:
    """One edit of the student's function: where (``line``), what it was and what it becomes
    (source text), and the operator's words."""

    line: int
    old: str
    new: str
    words: str

    def says(self, place=None) -> str:
        """The edit in words: where (``place(line)``, by default ``line N``), what becomes what."""
        old = self.old if len(self.old) <= 90 else self.old[:87] + "..."
        where = place(self.line) if place is not None else f"line {self.line}"
        if not self.new:  # a statement moved
            return f"{where}: `{old}` {self.words}"
        return f"{where}: {old} \N{RIGHTWARDS ARROW} {self.new} ({self.words})"



# ------------------------------------------------------------------------------------------------
# the edits: each yields (node to replace, its replacement, words) for one node of the function

_SWAPS = {ast.Add: [ast.Sub], ast.Sub: [ast.Add], ast.Mult: [ast.Div, ast.MatMult],
          ast.Div: [ast.Mult, ast.Sub], ast.MatMult: [ast.Mult], ast.Pow: [ast.Mult],
          ast.FloorDiv: [ast.Div]}
_COMPARE = {ast.Lt: [ast.Gt, ast.LtE], ast.Gt: [ast.Lt, ast.GtE], ast.LtE: [ast.GtE, ast.Lt],
            ast.GtE: [ast.LtE, ast.Gt], ast.Eq: [ast.NotEq], ast.NotEq: [ast.Eq]}
_CALLS = {"log": ["exp"], "exp": ["log"], "sum": ["mean"], "mean": ["sum"], "max": ["min"],
          "min": ["max"], "argmax": ["argmin"], "argmin": ["argmax"], "sqrt": ["square"],
          "square": ["sqrt"], "inv": ["pinv"], "eig": ["eigh"], "eigh": ["eig"],
          "vcol": ["vrow"], "vrow": ["vcol"], "hstack": ["vstack"], "vstack": ["hstack"],
          "median": ["mean"], "cov": ["var"], "dot": ["multiply"], "multiply": ["dot"],
          "column_stack": ["vstack", "hstack"], "row_stack": ["hstack"]}
_SORTS = {"argsort", "sort", "sorted", "lexsort", "argmax", "argmin"}


def _name(n) -> str:
    return ast.unparse(n)


@dataclasses.dataclass(frozen=True)
class Scope:
    """What the edits of one function may use: its variables (``names``: parameters, then what
    it assigns), the first line that binds each (``bound``: 0 for a parameter), and the names
    it adds somewhere (``terms``: an operand of a sum); what it binds and never reads; of its
    module, the other functions' parameters and scipy's logsumexp (`mlpr.grading.edits_flow`)."""

    names: tuple
    bound: dict
    terms: tuple = ()
    unused: tuple = ()  # names bound and never read
    callees: dict = dataclasses.field(default_factory=dict)  # the module's functions' params
    logsumexp: str | None = None  # how the module calls scipy's logsumexp


def _binop(node, scope):
    if not isinstance(node, ast.BinOp):
        return
    for op in _SWAPS.get(type(node.op), []):
        yield ast.BinOp(node.left, op(), node.right), "another operator"
    if isinstance(node.op, (ast.Add, ast.Sub)):
        yield node.left, "a term dropped"
        if isinstance(node.op, ast.Add):
            yield node.right, "a term dropped"
    if isinstance(node.op, (ast.Mult, ast.Div, ast.MatMult)):
        yield node.left, "a factor dropped"
        if isinstance(node.op, ast.Mult):
            yield node.right, "a factor dropped"
    if isinstance(node.op, (ast.Sub, ast.Div, ast.MatMult)):
        yield ast.BinOp(node.right, node.op, node.left), "the operands swapped"
    if isinstance(node.op, ast.Pow) and isinstance(node.right, ast.UnaryOp) and \
            isinstance(node.right.op, ast.USub) and _name(node.right.operand) == "1":
        yield _call("np.linalg.inv", node.left), "the matrix inverse for an element-wise one"
    if isinstance(node.op, ast.Div) and _name(node.left) in ("1", "1.0"):
        yield _call("np.linalg.inv", node.right), "the matrix inverse for an element-wise one"
    for side in ("left", "right"):  # a missing square or 1/2 on an operand
        operand = getattr(node, side)
        if isinstance(operand, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
            for new, words in ((ast.BinOp(operand, ast.Pow(), ast.Constant(2)), "squared"),
                               (ast.BinOp(ast.Constant(0.5), ast.Mult(), operand), "halved"),
                               (ast.BinOp(ast.Constant(2), ast.Mult(), operand), "doubled"),
                               (_call("np.sqrt", operand), "its square root"),
                               (_call("np.log", operand), "its log")):
                yield ast.BinOp(new if side == "left" else node.left, node.op,
                                new if side == "right" else node.right), words


def _call(func: str, *args) -> ast.Call:
    return ast.Call(ast.parse(func, mode="eval").body, list(args), [])


def _unary(node, scope):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield node.operand, "the sign dropped"


def _compare(node, scope):
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        for op in _COMPARE.get(type(node.ops[0]), []):
            yield ast.Compare(node.left, [op()], node.comparators), "another comparison"


def _calls(node, scope):
    if not isinstance(node, ast.Call):
        return
    f = node.func
    attr = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    for other in _CALLS.get(attr, []):
        new = copy.copy(node)
        new.func = (ast.Attribute(f.value, other, ast.Load()) if isinstance(f, ast.Attribute)
                    else ast.Name(other, ast.Load()))
        yield new, "another function"
    if attr in ("inv", "sqrt", "abs", "log", "exp", "square") and len(node.args) == 1:
        yield node.args[0], f"without its {attr}"
    if attr in _SIGNED and len(node.args) == 1:
        arg = node.args[0]
        turned = arg.operand if isinstance(arg, ast.UnaryOp) and isinstance(
            arg.op, ast.USub) else ast.UnaryOp(ast.USub(), arg)
        yield ast.Call(node.func, [turned], node.keywords), (
            "the exponent's sign turned" if attr == "exp" else "the argument's sign turned")
    if attr == "exp" and len(node.args) == 1:  # the prior of log-odds x, not its odds e^x
        yield ast.BinOp(ast.Constant(1.0), ast.Div(), ast.BinOp(
            ast.Constant(1.0), ast.Add(), ast.Call(node.func, [ast.UnaryOp(
                ast.USub(), node.args[0])], []))), "the logistic for the exponential"
    positional = [a for a in node.args if not isinstance(a, ast.Starred)]
    if len(positional) == len(node.args) >= 2:
        for i in range(len(node.args) - 1):
            args = list(node.args)
            args[i], args[i + 1] = args[i + 1], args[i]
            yield ast.Call(node.func, args, node.keywords), "the arguments swapped"
    if attr in _SORTS and node.args and isinstance(node.args[0], ast.Name):
        for other in scope.names:
            if other != node.args[0].id:
                yield ast.Call(node.func, [ast.Name(other, ast.Load()), *node.args[1:]],
                               node.keywords), "another array sorted"
    for k, kw in enumerate(node.keywords):  # another axis
        if kw.arg == "axis":
            for value in (0, 1, None):
                if _name(kw.value) != repr(value):
                    keywords = list(node.keywords)
                    keywords[k] = ast.keyword("axis", ast.Constant(value))
                    yield ast.Call(node.func, node.args, keywords), "another axis"
    if isinstance(f, ast.Attribute) and attr in ("sum", "mean", "max", "min", "argmax",
                                                 "argmin", "std", "var", "cumsum") \
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) \
            and node.args[0].value in (0, 1):
        yield ast.Call(f, [ast.Constant(1 - node.args[0].value)], node.keywords), \
            "another axis"


def _transpose(node, scope):
    if isinstance(node, ast.Attribute) and node.attr == "T":
        yield node.value, "no transpose"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        for side in ("left", "right"):
            operand = getattr(node, side)
            if not (isinstance(operand, ast.Attribute) and operand.attr == "T"):
                t = ast.Attribute(operand, "T", ast.Load())
                yield ast.BinOp(t if side == "left" else node.left, node.op,
                                t if side == "right" else node.right), "a transpose"


def _slices(node, scope):
    if not isinstance(node, ast.Subscript):
        return
    dims = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    rev = [i for i, d in enumerate(dims) if isinstance(d, ast.Slice) and d.step is not None
           and _name(d.step) == "-1" and d.lower is None and d.upper is None]
    full = ast.Slice(None, None, None)
    for i in rev:
        kept = [full if j == i else d for j, d in enumerate(dims)]
        yield _subscript(node, kept), "no reversal"
        for j in range(max(2, len(dims))):
            if j != i:
                moved = list(kept) + [full] * (j + 1 - len(kept))
                moved[j] = ast.Slice(None, None, ast.UnaryOp(ast.USub(), ast.Constant(1)))
                yield _subscript(node, moved), "the other dimension reversed"
    for i, d in enumerate(dims):  # the other end: x[k:] for x[:-k] and back
        if isinstance(d, ast.Slice) and d.step is None and (d.lower is None) != (d.upper is None):
            bound = d.lower if d.upper is None else d.upper
            k = bound.operand if isinstance(bound, ast.UnaryOp) and isinstance(
                bound.op, ast.USub) else ast.UnaryOp(ast.USub(), bound)
            other = ast.Slice(k, None, None) if d.lower is None else ast.Slice(None, k, None)
            yield _subscript(node, [other if j == i else e for j, e in enumerate(dims)]), \
                "the other end of the array"
    for i, d in enumerate(dims):  # an off-by-one bound of a slice
        if isinstance(d, ast.Slice):
            for part in ("lower", "upper"):
                bound = getattr(d, part)
                if bound is not None:
                    for delta in (1, -1):
                        s = copy.copy(d)
                        setattr(s, part, _plus(bound, delta))
                        yield _subscript(node, [s if j == i else e for j, e in
                                                enumerate(dims)]), "a bound one off"


def _subscript(node, dims):
    sl = dims[0] if len(dims) == 1 else ast.Tuple(dims, ast.Load())
    return ast.Subscript(node.value, sl, node.ctx)


def _plus(bound, delta):
    if isinstance(bound, ast.Constant) and type(bound.value) is int:
        return ast.Constant(bound.value + delta)
    return ast.BinOp(bound, ast.Add() if delta > 0 else ast.Sub(), ast.Constant(1))


def _tuples(node, scope):
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 2 and not any(
            isinstance(e, ast.Starred) for e in node.elts):
        yield type(node)(node.elts[::-1], node.ctx), "the pair swapped"


def _indices(node, scope):
    """An index 0 for -1 (the first for the last) and back, and an index of one dimension moved
    to the other (``U[:, k]`` and ``U[k]``)."""
    if not isinstance(node, ast.Subscript):
        return
    dims = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for i, d in enumerate(dims):
        text = ast.unparse(d)
        if text in ("0", "-1"):
            other = ast.UnaryOp(ast.USub(), ast.Constant(1)) if text == "0" else ast.Constant(0)
            yield _subscript(node, [other if j == i else e for j, e in enumerate(dims)]), \
                "the first for the last"
    full = ast.Slice(None, None, None)
    if len(dims) == 2 and isinstance(dims[0], ast.Slice) and dims[0].lower is None and \
            dims[0].upper is None and dims[0].step is None and not isinstance(dims[1], ast.Slice):
        yield _subscript(node, [dims[1]]), "the index on the other dimension"
    if len(dims) == 1 and not isinstance(dims[0], (ast.Slice, ast.Tuple)):
        yield _subscript(node, [full, dims[0]]), "the index on the other dimension"


def _constants(node, scope):
    if isinstance(node, ast.Constant) and type(node.value) is bool:
        yield ast.Constant(not node.value), "the flag turned"
    if isinstance(node, ast.Constant) and type(node.value) is float and node.value:
        yield ast.Constant(-node.value), "the sign of a constant"
    if isinstance(node, ast.Constant) and node.value is None:  # a bound left open
        for other in scope.names[:12]:
            yield ast.Name(other, ast.Load()), "a bound for None"
    if isinstance(node, ast.Constant) and type(node.value) is int and 0 <= node.value <= 10:
        for v in (node.value - 1, node.value + 1):
            if v >= 0:
                yield ast.Constant(v), "another constant"


def _variables(node, scope):
    """Another of the function's variables, among those bound on an earlier line (a parameter,
    or assigned above: a later one is not yet bound there)."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in scope.names:
        for other in scope.names:
            if other != node.id and scope.bound.get(other, 10**9) < node.lineno:
                yield ast.Name(other, ast.Load()), "another variable"


def _factors(node, scope):
    """A factor or a divisor the student left out of a term: a name that a neighbouring
    statement (of the same block) multiplies or divides by, or one the function computes and
    never reads; a matrix a neighbouring statement multiplies by, on the left (``W = U`` for
    ``W = P.T @ U``)."""
    for term in getattr(node, "_terms", ()):
        for f in node._factors:
            if f not in _names_in(term) and scope.bound.get(f, 10**9) < node.lineno:
                yield term, ast.BinOp(ast.Name(f, ast.Load()), ast.Mult(), term), \
                    f"the factor {f} added"
                yield term, ast.BinOp(term, ast.Div(), ast.Name(f, ast.Load())), \
                    f"divided by {f}"
        if getattr(term, "_whole", False):
            for f in node._parameters:
                if f not in _names_in(term):
                    yield term, ast.BinOp(term, ast.Mult(), ast.Name(f, ast.Load())), \
                        f"the factor {f} added"
            if isinstance(node, ast.Return):
                yield term, ast.Attribute(term, "T", ast.Load()), "the result transposed"
            for m in node._matrices:
                if m not in _names_in(term) and scope.bound.get(m, 10**9) < node.lineno:
                    for left in (ast.Name(m, ast.Load()),
                                 ast.Attribute(ast.Name(m, ast.Load()), "T", ast.Load())):
                        yield term, ast.BinOp(left, ast.MatMult(), term), \
                            f"multiplied by {ast.unparse(left)} on the left"


def _added(node, scope):
    """A term the student left out: a name that the function adds elsewhere (an operand of a
    sum), added to an operand of a product or to a whole value (``k(x, y)`` for ``k(x, y) +
    eps``)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.MatMult, ast.Div)):
        spots = [node.left, node.right]
    else:
        spots = [t for t in getattr(node, "_terms", ()) if getattr(t, "_whole", False)]
    for spot in spots:
        for t in scope.terms:
            if t not in _names_in(spot) and scope.bound.get(t, 10**9) < spot.lineno:
                yield spot, ast.BinOp(spot, ast.Add(), ast.Name(t, ast.Load())), \
                    f"the term {t} added"


def _names_in(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _regroup(node, scope):
    """The parentheses moved: ``a ** d + c`` for ``(a + c) ** d``, ``a * (b + c)`` for
    ``a * b + c`` and back (an operation applied to the wrong part of an expression)."""
    if not isinstance(node, ast.BinOp):
        return
    left, right = node.left, node.right
    if isinstance(left, ast.BinOp):  # (a o1 b) o2 c -> (a o2 c) o1 b, a o1 (b o2 c)
        yield ast.BinOp(ast.BinOp(left.left, node.op, right), left.op, left.right), \
            "the parentheses moved"
        yield ast.BinOp(left.left, left.op, ast.BinOp(left.right, node.op, right)), \
            "the parentheses moved"
    if isinstance(right, ast.BinOp):  # a o1 (b o2 c) -> (a o1 b) o2 c
        yield ast.BinOp(ast.BinOp(left, node.op, right.left), right.op, right.right), \
            "the parentheses moved"


def _subscript_call(node, scope):
    """An index applied after a call instead of before it, and back: ``np.sort(x)[m]`` for
    ``np.sort(x[m])`` (the mask of the unsorted array applied to the sorted one)."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) and \
            len(node.value.args) == 1 and not node.value.keywords:
        call = node.value
        yield ast.Call(call.func, [ast.Subscript(call.args[0], node.slice, ast.Load())], []), \
            "the index applied before the call"
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and \
            isinstance(node.args[0], ast.Subscript):
        inner = node.args[0]
        yield ast.Subscript(ast.Call(node.func, [inner.value], []), inner.slice, ast.Load()), \
            "the index applied after the call"


def _exchange(node, scope):
    """Two variables exchanged everywhere in one statement (``Cfn`` and ``Cfp``, ``i`` and
    ``j``)."""
    if not isinstance(node, (ast.Assign, ast.AugAssign, ast.Return, ast.Expr)):
        return
    loaded = [n for n in ast.walk(node) if isinstance(n, ast.Name)
              and isinstance(n.ctx, ast.Load) and n.id in scope.names]
    ids = list(dict.fromkeys(n.id for n in loaded))[:6]
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            new = copy.deepcopy(node)
            for n in ast.walk(new):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in (a, b):
                    n.id = b if n.id == a else a
            yield new, f"{a} and {b} exchanged"
    counts = {a: sum(n.id == a for n in loaded) for a in ids}
    for a in ids:  # one variable for another throughout the statement
        if counts[a] < 2:
            continue
        for b in scope.names:
            if b != a and _alike(a, b) >= ALIKE and scope.bound.get(b, 10**9) < node.lineno:
                new = copy.deepcopy(node)
                for n in ast.walk(new):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id == a:
                        n.id = b
                yield new, f"{b} for {a} throughout the line"


def _ends(node, scope):
    """The first for the last throughout a statement: every index 0 and -1, every slice
    ``[1:]`` and ``[:-1]`` turned at once (``return x[1:], x[0]`` for ``x[:-1], x[-1]``: one
    misconception about where a value sits, written twice)."""
    if not isinstance(node, (ast.Assign, ast.Return)):
        return
    new = copy.deepcopy(node)
    turned = 0
    for n in ast.walk(new):
        if not isinstance(n, ast.Subscript):
            continue
        dims = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
        out = []
        for d in dims:
            text = ast.unparse(d)
            swap = {"0": "-1", "-1": "0", "1:": ":-1", ":-1": "1:"}.get(text)
            out.append(ast.parse(f"x[{swap}]", mode="eval").body.slice if swap else d)
            turned += swap is not None
        n.slice = out[0] if len(out) == 1 else ast.Tuple(out, ast.Load())
    if turned >= 2:
        yield new, "the first for the last throughout the line"


#: The one-argument functions whose argument's sign a mistake turns: the exponent, the logistic
_SIGNED = {"exp", "expit", "log1p", "sigmoid", "logistic"}


#: The edits, in the order they are tried (the cheap and likely ones first), each a function
#: ``(node, scope) -> iterator of (replacement, words)`` (`_factors`: of ``(term, replacement,
#: words)``, for the terms marked on the node); `_statements` moves and removes statements
EDITS = (_binop, _unary, _compare, _calls, _tuples, _transpose, _slices, _indices, _constants,
         _subscript_call, _regroup, _exchange, _ends, _variables)


def _statements(func: ast.FunctionDef) -> Iterator[tuple]:
    """Statement moves: ``(path to a body list, new list, line, old, new, words)``."""
    bound = {a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs}
    for parent in ast.walk(func):
        for field in ("body", "orelse"):
            body = getattr(parent, field, None)
            if not isinstance(body, list) or not body or not isinstance(body[0], ast.stmt):
                continue
            for i, stmt in enumerate(body):
                if i + 1 < len(body):  # past its neighbour
                    new = body[:i] + [body[i + 1], stmt] + body[i + 2:]
                    yield (parent, field, new, stmt.lineno, ast.unparse(stmt).split("\n")[0],
                           "moved after the next statement")
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                        isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in bound \
                        and len(body) > 1:  # a value overwritten: the statement removed
                    yield (parent, field, body[:i] + body[i + 1:], stmt.lineno,
                           ast.unparse(stmt).split("\n")[0], "removed")
                block = "loop" if isinstance(stmt, (ast.For, ast.While)) else "if"
                if isinstance(stmt, (ast.For, ast.While, ast.If)) and len(stmt.body) > 1:
                    last = stmt.body[-1]  # out of the loop
                    loop = copy.copy(stmt)
                    loop.body = stmt.body[:-1]
                    yield (parent, field, body[:i] + [loop, last] + body[i + 1:], last.lineno,
                           ast.unparse(last).split("\n")[0], f"moved out of the {block}")
                if isinstance(stmt, (ast.For, ast.While, ast.If)):
                    if i + 1 < len(body):  # the statement after it, into the loop
                        nxt = body[i + 1]
                        loop = copy.copy(stmt)
                        loop.body = stmt.body + [nxt]
                        yield (parent, field, body[:i] + [loop] + body[i + 2:], nxt.lineno,
                               ast.unparse(nxt).split("\n")[0], f"moved into the {block}")
            for stmt in body:  # what the statements of this body bind, for the next ones
                if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    bound |= {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)
                              and isinstance(n.ctx, ast.Store)}


def _operands(stmt, names) -> tuple:
    """The names of ``names`` that ``stmt`` multiplies or divides by, and multiplies by as
    matrices."""
    factors, matrices = [], []
    for n in ast.walk(stmt):
        if isinstance(n, ast.BinOp):
            operands, op = [n.left, n.right], n.op
        elif isinstance(n, ast.AugAssign):
            operands, op = [n.value], n.op
        else:
            continue
        for o in operands:
            if isinstance(o, ast.Name) and o.id in names:
                if isinstance(op, (ast.Mult, ast.Div)):
                    factors.append(o.id)
                elif isinstance(op, ast.MatMult):
                    matrices.append(o.id)
    return factors, matrices


def _scope(func: ast.FunctionDef) -> Scope:
    """The `Scope` of ``func``, and on each of its assignments and returns: its terms
    (``_terms``: its whole value, the elements of a tuple, the operands of its sums), and the
    factors (``_factors``) and matrices (``_matrices``) that `_factors` may add to them."""
    names = _local_names(func)
    loads = {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx,
                                                                                  ast.Load)}
    unused = [n for n in names if n not in loads and not n.startswith("_")][:3]
    params = [a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs]
    for parent in ast.walk(func):
        body = getattr(parent, "body", None)
        if not isinstance(body, list):
            continue
        simple = [st for st in body if isinstance(st, (ast.Assign, ast.AugAssign, ast.Return))
                  and st.value is not None and not (isinstance(st, ast.Assign) and isinstance(
                      st.targets[0], ast.Tuple))]  # not an unpacking
        used = {id(st): _operands(st, names) for st in simple}
        for st in simple:
            own = _names_in(st)
            others = [x for o in simple if o is not st for x in used[id(o)][0]]
            st._factors = tuple(f for f in dict.fromkeys(unused + others) if f not in own)[:6]
            st._parameters = tuple(p for p in params if p not in own and p not in
                                   st._factors)[:4]
            st._matrices = tuple(m for m in dict.fromkeys(
                x for o in simple if o is not st for x in used[id(o)][1]) if m not in own)[:3]
            whole = st.value
            terms = list(whole.elts) if isinstance(whole, ast.Tuple) else [whole]
            for t in terms:
                t._whole = True
            for n in ast.walk(whole):  # the operands of its sums, at any depth
                if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub)):
                    terms += [o for o in (n.left, n.right) if not (
                        isinstance(o, ast.BinOp) and isinstance(o.op, (ast.Add, ast.Sub)))]
            st._terms = terms
    bound: dict = {a.arg: 0 for a in func.args.posonlyargs + func.args.args +
                   func.args.kwonlyargs}
    for n in ast.walk(func):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            bound[n.id] = min(bound.get(n.id, 10**9), n.lineno)
        elif isinstance(n, (ast.FunctionDef, ast.Lambda)) and n is not func:
            for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs:
                bound[a.arg] = min(bound.get(a.arg, 10**9), n.lineno)
    terms = tuple(dict.fromkeys(
        o.id for n in ast.walk(func) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add)
        for o in (n.left, n.right) if isinstance(o, ast.Name) and o.id in names))[:4]
    return Scope(tuple(names), bound, terms, tuple(unused))


def _local_names(func: ast.FunctionDef) -> list:
    """The function's parameters, then the names it binds (its nested functions' parameters
    and assignments included), at most 30."""
    names = [a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs]
    for n in ast.walk(func):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id not in names:
            names.append(n.id)
        elif isinstance(n, ast.FunctionDef) and n is not func:
            names += [a.arg for a in n.args.args if a.arg not in names]
    return names[:30]


def _replace(func: ast.FunctionDef, target, new) -> ast.FunctionDef:
    """A copy of ``func`` with the node ``target`` (of ``func`` itself) replaced by ``new``."""
    memo: dict = {}
    clone = copy.deepcopy(func, memo)
    twin = memo[id(target)]
    for parent in ast.walk(clone):
        for field, value in ast.iter_fields(parent):
            if value is twin:
                setattr(parent, field, new)
                return clone
            if isinstance(value, list):
                for k, item in enumerate(value):
                    if item is twin:
                        value[k] = new
                        return clone
    raise LookupError("node not found")


def first_line(func: ast.FunctionDef) -> int:
    """The line where ``func``'s source starts: its first decorator's, or its ``def``."""
    return min([func.lineno] + [d.lineno for d in func.decorator_list])


def candidates(text: str, func: ast.FunctionDef, splice: bool = True) -> Iterator[tuple]:
    """``(Edit, edited tree or None, its source)`` for each single edit of ``func``, each
    distinct edited source once, in `EDITS`' order (statement moves before variable
    substitutions). An edit of an expression is spliced into the student's own text (its
    lines, comments and line numbers kept; the tree is None: parse the source, placed at
    `first_line`, to edit it again); a statement moved is the edited tree, unparsed (with
    ``splice=False``, every edit is)."""
    func = copy.deepcopy(func)  # its statements get their terms marked
    scope = dataclasses.replace(_scope(func), callees=callees(text),
                                logsumexp=logsumexp_name(text))
    start = first_line(func)
    lines = text.split("\n")
    block = lines[start - 1:func.end_lineno]
    original = "\n".join(block) if splice else ast.unparse(func)
    seen = {original}

    def old_text(node) -> str:
        seg = _segment(block, start, node) or ast.unparse(node)
        return " ".join(seg.split())

    def emit(clone, edit):
        try:
            src = ast.unparse(ast.fix_missing_locations(clone))
        except Exception:  # an edit that makes no valid tree: not a candidate
            return None
        if src in seen:
            return None
        seen.add(src)
        return edit, clone, src

    def put(node, new, words):  # one node replaced: spliced into the text, or a new tree
        new_text = ast.unparse(new)
        edit = Edit(node.lineno, old_text(node), " ".join(new_text.split()), words)
        if not splice:
            return emit(_replace(func, node, new), edit)
        src = _splice(block, start, node, new_text)
        if src is None or src in seen:
            return None
        seen.add(src)
        return edit, None, src

    inside = {id(d) for n in ast.walk(func) if isinstance(n, ast.JoinedStr)
              for d in ast.walk(n) if d is not n}  # an f-string's parts are not spliced
    nodes = [n for n in ast.walk(func) if n is not func and hasattr(n, "lineno")
             and not isinstance(n, (ast.arguments, ast.arg)) and id(n) not in inside]
    for edit in EDITS[:-1]:
        for node in nodes:
            for new, words in edit(node, scope):
                out = put(node, new, words)
                if out:
                    yield out
    swaps = sorted(((node, new, words) for node in nodes for new, words in
                    _variables(node, scope)), key=lambda t: -_alike(t[0].id, t[1].id))

    def substitutions(similar: bool):  # another variable: the most alike names first
        for node, new, words in swaps:
            if (_alike(node.id, new.id) >= ALIKE) == similar:
                out = put(node, new, words)
                if out:
                    yield out
    yield from substitutions(True)
    for node in nodes:  # a factor, a divisor, a matrix or a term left out; where values flow
        for term, new, words in (*_factors(node, scope), *_added(node, scope),
                                 *(t for flow in FLOW for t in flow(node, scope))):
            out = put(term, new, words)
            if out:
                yield out
    for parent, field, new_body, line, old, words in _statements(func):
        memo: dict = {}
        clone = copy.deepcopy(func, memo)
        twin = memo[id(parent)] if parent is not func else clone
        setattr(twin, field, [memo.get(id(s), s) for s in new_body])
        out = emit(clone, Edit(line, lines[line - 1].strip() if 0 < line <= len(lines)
                               else old, "", words))
        if out:
            yield out
    yield from substitutions(False)


def _segment(block: list, start: int, node) -> str | None:
    """``node``'s own text in the function's lines ``block`` (its first at line ``start``)."""
    try:
        first, last = node.lineno - start, node.end_lineno - start
        if first < 0 or last >= len(block):
            return None
        if first == last:
            return block[first].encode()[node.col_offset:node.end_col_offset].decode()
        return "\n".join([block[first].encode()[node.col_offset:].decode(), *block[first + 1:last],
                          block[last].encode()[:node.end_col_offset].decode()])
    except (AttributeError, IndexError, TypeError, UnicodeDecodeError):
        return None


def _splice(block: list, start: int, node, text: str) -> str | None:
    """The function's lines ``block`` (its first at line ``start``) with ``node``'s text
    replaced by ``text`` (in parentheses, for an expression), on the node's first line; the
    lines it spanned are left blank, so that every later line keeps its number."""
    try:
        first, last = node.lineno - start, node.end_lineno - start
        head = block[first].encode()[:node.col_offset].decode()
        tail = block[last].encode()[node.end_col_offset:].decode()
    except (AttributeError, IndexError, TypeError, UnicodeDecodeError):
        return None
    if first < 0 or last >= len(block):
        return None
    if not isinstance(node, ast.stmt):
        text = f"({text})"
    elif "\n" in text:
        return None
    return "\n".join(block[:first] + [head + text + tail] + [""] * (last - first)
                     + block[last + 1:])


#: Two names at least this alike (`difflib`'s ratio) are tried for each other first: a student
#: confuses ``N`` and ``Ng``, ``labels`` and ``newLabels`` more often than unrelated names
ALIKE = 0.5


def _alike(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio()
