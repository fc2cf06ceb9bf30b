r"""The mutation operators of the grading kit's mutation search (`mlpr.grading.mutants`).

Each operator is a function ``op(node, formula)`` of one node of a formula's syntax tree that
yields ``(replacement node, change in words)``: the change as a student reads it, written once
here, with the changed term (``ast.unparse``). `OPERATORS` is the whitelist the search applies;
adding an operator is one function here and one entry there (``docs/grading/mistakes.md``).
"""

from __future__ import annotations

import ast
import copy

__all__ = ["OPERATORS"]


def _u(node) -> str:
    return ast.unparse(node)


# ------------------------------------------------------------------------------------------------
# the operators: each takes a node (and the formula) and yields (replacement node, change in words)


def _is_call(node, *names) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return name in names


def _op_drop_term(node, formula):
    """Drop an additive term: ``a + b`` -> ``a`` or ``b``; ``a - b`` -> ``a`` or ``-b``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        sign = "-" if isinstance(node.op, ast.Sub) else "+"
        yield node.left, f"the term `{sign} {_u(node.right)}` left out of `{_u(node)}`"
        other = node.right if isinstance(node.op, ast.Add) else ast.UnaryOp(ast.USub(), node.right)
        yield other, f"the term `{_u(node.left)}` left out of `{_u(node)}`"


def _op_drop_factor(node, formula):
    """Drop a factor: ``a * b`` -> ``a`` or ``b`` (a factor 1/2, a weight, the labels)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        yield node.left, f"the factor `{_u(node.right)}` left out of `{_u(node)}`"
        yield node.right, f"the factor `{_u(node.left)}` left out of `{_u(node)}`"


def _op_no_division(node, formula):
    """Remove a division (a normalisation): ``a / b`` -> ``a``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        yield node.left, (f"`{_u(node.left)}` not divided by {_u(node.right)} (`{_u(node)}` "
                          f"without its `/ {_u(node.right)}`)")


def _op_mult_div(node, formula):
    """Divide where the formula multiplies, and the other way round."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
        new = ast.BinOp(node.left, ast.Div() if isinstance(node.op, ast.Mult) else ast.Mult(),
                        node.right)
        if isinstance(node.op, ast.Mult):
            yield new, (f"`{_u(new)}` in place of `{_u(node)}`: divided by {_u(node.right)} "
                        f"instead of multiplied")
            other = ast.BinOp(node.right, ast.Div(), node.left)
            yield other, (f"`{_u(other)}` in place of `{_u(node)}`: divided by {_u(node.left)} "
                          f"instead of multiplied")
        else:
            yield new, (f"`{_u(new)}` in place of `{_u(node)}`: multiplied by {_u(node.right)} "
                        f"instead of divided")


def _op_sign(node, formula):
    """Leave out a minus sign: ``-a`` -> ``a``."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield node.operand, f"`{_u(node.operand)}` in place of `{_u(node)}` (the sign left out)"


def _op_log_domain(node, formula):
    """Linear for log domain: ``log(x)`` -> ``x``, ``exp(x)`` -> ``x``."""
    if _is_call(node, "log") and len(node.args) == 1:
        yield node.args[0], (f"`{_u(node.args[0])}` in place of `{_u(node)}`: the linear domain "
                             f"where the formula is in the log domain")
    if _is_call(node, "exp") and len(node.args) == 1:
        yield node.args[0], (f"`{_u(node.args[0])}` in place of `{_u(node)}`: the log domain "
                             f"where the formula is in the linear domain")


def _op_sqrt(node, formula):
    """A missing square root: ``sqrt(x)`` -> ``x``, ``x ** 0.5`` -> ``x``."""
    if _is_call(node, "sqrt") and len(node.args) == 1:
        yield node.args[0], (f"`{_u(node.args[0])}` in place of `{_u(node)}` (the square root "
                             f"left out)")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and \
            isinstance(node.right, ast.Constant) and node.right.value in (0.5, -0.5):
        new = node.left if node.right.value == 0.5 else ast.BinOp(ast.Constant(1.0), ast.Div(),
                                                                  node.left)
        yield new, f"`{_u(new)}` in place of `{_u(node)}` (the square root left out)"


def _op_transpose(node, formula):
    """The transpose left out (``A.T`` -> ``A``)."""
    if isinstance(node, ast.Attribute) and node.attr == "T":
        yield node.value, (f"`{_u(node.value)}` in place of `{_u(node)}` (the transpose "
                           f"left out)")


def _op_min_max(node, formula):
    """``min`` for ``max`` and the other way round."""
    if isinstance(node, ast.Call):
        f = node.func
        attr = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        swap = {"min": "max", "max": "min", "argmin": "argmax", "argmax": "argmin",
                "minimum": "maximum", "maximum": "minimum"}
        if attr in swap:
            new = copy.deepcopy(node)
            if isinstance(new.func, ast.Attribute):
                new.func.attr = swap[attr]
            else:
                new.func.id = swap[attr]
            yield new, f"`{_u(new)}` in place of `{_u(node)}`"


def _op_compare(node, formula):
    """``>=`` for ``>`` and the other way round (and ``<`` / ``<=``, ``==`` / ``!=``); a test
    inverted (``>=`` or ``>`` for ``<=``)."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        swap = {ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Lt: ast.LtE, ast.LtE: ast.Lt,
                ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
        if type(node.ops[0]) not in swap:
            return
        new = ast.Compare(node.left, [swap[type(node.ops[0])]()], node.comparators)
        yield new, f"`{_u(new)}` in place of `{_u(node)}`"
        inverse = {ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Lt: ast.Gt, ast.LtE: ast.GtE}
        for op in (inverse.get(type(node.ops[0])), swap.get(inverse.get(type(node.ops[0])))):
            if op is not None:
                new = ast.Compare(node.left, [op()], node.comparators)
                yield new, f"`{_u(new)}` in place of `{_u(node)}` (the test inverted)"


def _op_any_all(node, formula):
    """``any`` for ``all`` and the other way round."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("any", "all"):
        new = copy.deepcopy(node)
        new.func.attr = "all" if node.func.attr == "any" else "any"
        yield new, f"`{_u(new)}` in place of `{_u(node)}`"


def _axis_words(axis) -> str:
    return {0: "the column sums of a matrix, over its rows",
            1: "the row sums of a matrix, over its columns"}.get(axis, f"axis {axis}")


def _op_axis(node, formula):
    """Another axis of a reduction, or none (``axis=0`` -> ``axis=1``, or over every entry)."""
    if not isinstance(node, ast.Call):
        return
    for i, kw in enumerate(node.keywords):
        if kw.arg == "axis" and isinstance(kw.value, ast.Constant) and kw.value.value in (0, 1):
            new = copy.deepcopy(node)
            new.keywords[i].value = ast.Constant(1 - kw.value.value)
            yield new, (f"`{_u(new)}` in place of `{_u(node)}`: the reduction along axis "
                        f"{1 - kw.value.value} ({_axis_words(1 - kw.value.value)}) instead of "
                        f"axis {kw.value.value} ({_axis_words(kw.value.value)})")
            new = copy.deepcopy(node)
            del new.keywords[i]
            new.keywords = [k for k in new.keywords if k.arg != "keepdims"]
            yield new, (f"`{_u(new)}` in place of `{_u(node)}`: without axis=, one value over "
                        f"every entry instead of one value per row or column")
    f = node.func
    if isinstance(f, ast.Attribute) and f.attr in ("sum", "mean", "max", "min", "var", "std") \
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and \
            node.args[0].value in (0, 1):
        a = node.args[0].value
        new = copy.deepcopy(node)
        new.args[0] = ast.Constant(1 - a)
        yield new, (f"`{_u(new)}` in place of `{_u(node)}`: the reduction along axis {1 - a} "
                    f"({_axis_words(1 - a)}) instead of axis {a} ({_axis_words(a)})")


def _op_index(node, formula):
    """Another index: the first for the last (``[-1]`` -> ``[0]``), off by one (``[1]`` ->
    ``[0]``), the order not reversed (``[::-1]`` left out)."""
    if not isinstance(node, ast.Subscript):
        return
    sl = node.slice
    elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
    for j, e in enumerate(elts):
        alternatives = []
        if isinstance(e, ast.Constant) and isinstance(e.value, int):
            v = e.value
            if v == 0:
                alternatives.append((ast.UnaryOp(ast.USub(), ast.Constant(1)),
                                     "the last instead of the first"))
                alternatives.append((ast.Constant(1), "off by one"))
            elif v > 0:
                alternatives.append((ast.Constant(v - 1), "off by one"))
                alternatives.append((ast.Constant(v + 1), "off by one"))
        elif isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub) and \
                isinstance(e.operand, ast.Constant) and e.operand.value == 1:
            alternatives.append((ast.Constant(0), "the first instead of the last"))
        elif isinstance(e, ast.Slice):
            if e.step is not None and _u(e.step) == "-1" and e.lower is None and e.upper is None:
                alternatives.append((ast.Slice(None, None, None), "the order not reversed"))
            for bound in ("lower", "upper"):
                b = getattr(e, bound)
                if b is not None:
                    for op in (ast.Add(), ast.Sub()):
                        s2 = copy.deepcopy(e)
                        setattr(s2, bound, ast.BinOp(copy.deepcopy(b), op, ast.Constant(1)))
                        alternatives.append((s2, "off by one in a slice"))
        for alt, words in alternatives:
            new = copy.deepcopy(node)
            if isinstance(new.slice, ast.Tuple):
                new.slice.elts[j] = alt
            else:
                new.slice = alt
            yield new, f"`{_u(new)}` in place of `{_u(node)}` ({words})"
    if isinstance(sl, ast.Name):
        yield node.value, (f"`{_u(node.value)}` in place of `{_u(node)}` (the indexing by "
                           f"`{_u(sl)}` left out)")


def _op_range(node, formula):
    """A ``range(n)`` off by one: ``range(n - 1)``, ``range(n + 1)``."""
    if _is_call(node, "range") and len(node.args) == 1:
        for op, words in ((ast.Sub(), "stops one short"), (ast.Add(), "runs one too far")):
            new = ast.Call(node.func, [ast.BinOp(node.args[0], op, ast.Constant(1))], [])
            yield new, f"`{_u(new)}` in place of `{_u(node)}` (off by one: the loop {words})"


def _op_drop_argument(node, formula):
    """A call with its last positional argument left out (``eigh(A, B)`` -> ``eigh(A)``)."""
    if isinstance(node, ast.Call) and len(node.args) >= 2 and not _is_call(node, "range"):
        new = ast.Call(node.func, node.args[:-1], node.keywords)
        yield new, (f"`{_u(new)}` in place of `{_u(node)}` (the argument `{_u(node.args[-1])}` "
                    f"left out)")


def _op_drop_condition(node, formula):
    """A comprehension's condition left out."""
    if isinstance(node, ast.comprehension) and node.ifs:
        new = copy.deepcopy(node)
        new.ifs = []
        cond = " ".join(f"if {_u(c)}" for c in node.ifs)
        yield new, f"every item, without the condition `{cond}` of `for {_u(node.target)} in ...`"


def _op_labels(node, formula):
    """0/1 labels where the formula has +-1 ones: ``2 * c - 1`` -> ``c``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and \
            isinstance(node.right, ast.Constant) and node.right.value == 1 and \
            isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Mult) and \
            isinstance(node.left.left, ast.Constant) and node.left.left.value == 2:
        c = node.left.right
        yield c, (f"the 0/1 labels `{_u(c)}` in place of the ±1 labels z_i = `{_u(node)}` "
                  f"(0/1 for -1, +1)")


class _Rename(ast.NodeTransformer):
    def __init__(self, name: str, expr: str):
        self.name, self.expr = name, expr

    def visit_Name(self, node):
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            return ast.parse(self.expr, mode="eval").body
        return node


def _op_replace(node, formula):
    """A name mistaken for another quantity in scope (`Formula.replace`), throughout one line
    of the formula."""
    if not isinstance(node, (ast.Assign, ast.AugAssign, ast.Return, ast.Expr)):
        return
    loads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and
             isinstance(n.ctx, ast.Load)}
    for name in sorted(loads & set(formula.replace)):
        for expr in formula.replace[name]:
            new = _Rename(name, expr).visit(copy.deepcopy(node))
            yield new, f"`{expr}` in place of `{name}` in `{_u(node)}`"


def _op_ends(node, formula):
    """The other end: a two-item list in the other order (``[a, [True]]`` -> ``[[True], a]``:
    the first of a run where the formula keeps the last)."""
    if isinstance(node, ast.List) and len(node.elts) == 2:
        new = ast.List([node.elts[1], node.elts[0]], ast.Load())
        yield new, (f"`{_u(new)}` in place of `{_u(node)}` (the other end: the first instead "
                    f"of the last, or the last instead of the first)")


#: The operators: name -> function(node, formula) yielding (replacement, change in words)
OPERATORS = {
    "drop term": _op_drop_term,
    "drop factor": _op_drop_factor,
    "no division": _op_no_division,
    "multiply for divide": _op_mult_div,
    "sign": _op_sign,
    "log domain": _op_log_domain,
    "square root": _op_sqrt,
    "transpose": _op_transpose,
    "min for max": _op_min_max,
    "comparison": _op_compare,
    "any for all": _op_any_all,
    "axis": _op_axis,
    "index": _op_index,
    "range": _op_range,
    "ends": _op_ends,
    "drop argument": _op_drop_argument,
    "drop condition": _op_drop_condition,
    "labels": _op_labels,
    "replace": _op_replace,
}
