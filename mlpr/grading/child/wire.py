"""The wire codec of the grading kit: what crosses between the grader and a submission's process.

Both sides use this module and nothing else to talk: the grader (`mlpr.grading.runner`) and the
harness beside the submission (`mlpr.grading.child.harness`), and student mode for the calls it
makes in the lecture's own process (`mlpr.grading.student`), so that a student's function sees
and returns the same values there as when it is graded. It imports nothing of mlpr: it is staged
into the sandbox beside the harness.

A frame is ``>II`` (length of a JSON header, number of blobs), the header (UTF-8 JSON), then each
blob as ``>Q`` length + bytes. Plain data is None, bool, int, str, float (``{"$f": "nan"}`` for
non-finite ones), lists, ``{"$t": [...]}`` tuples, ``{"$d": [[k, v], ...]}`` dicts,
``{"$a": [i, dtype, shape]}`` numeric numpy arrays (blob i their raw C-order bytes, the dtype one
of `DTYPES`, checked against the blob's length: no parser of the numpy format runs on what the
submission sends, and it costs a memory copy), ``{"$fn": h}
a function kept by the submission's side under handle h, and ``{"$cb": i}`` a function of the
grader's (a kernel) that the submission's side calls back through the channel.
"""

import json
import math
import os
import struct

import numpy as np

__all__ = ["MAX_FRAME", "MAX_DEPTH", "FrameTooLarge", "frame_bytes", "write_frame", "parse_frame",
           "encode",
           "decode", "round_trip", "uses"]

MAX_FRAME = 1 << 28  # 256 MiB: larger frames are refused by both sides
MAX_DEPTH = 32


def frame_bytes(header, blobs=()) -> bytes:
    """One frame: the lengths, the JSON header, each blob with its length."""
    head = json.dumps(header, allow_nan=False).encode()
    parts = [struct.pack(">II", len(head), len(blobs)), head]
    for b in blobs:
        parts += [struct.pack(">Q", len(b)), b]
    return b"".join(parts)


def write_frame(fd: int, header, blobs=()) -> None:
    data = frame_bytes(header, blobs)
    while data:
        data = data[os.write(fd, data):]


class FrameTooLarge(ValueError):
    """A frame whose header or blobs exceed the reader's caps (read no further)."""


def parse_frame(read, max_header: int = MAX_FRAME, max_blobs: int = MAX_FRAME) -> tuple:
    """Read one frame with ``read(n)`` (exactly n bytes, or an exception): (header, blobs).
    A header longer than ``max_header`` bytes, or blobs adding up to more than ``max_blobs``, are
    refused (`FrameTooLarge`) before they are read."""
    n_head, n_blobs = struct.unpack(">II", read(8))
    if n_head > max_header:
        raise FrameTooLarge(f"a header of {n_head} bytes (at most {max_header})")
    if n_blobs > 10_000:
        raise FrameTooLarge(f"{n_blobs} arrays in one frame (at most 10000)")
    header = json.loads(read(n_head))
    blobs, total = [], 0
    for _ in range(n_blobs):
        (n,) = struct.unpack(">Q", read(8))
        total += n
        if total > max_blobs:
            raise FrameTooLarge(f"arrays of more than {max_blobs} bytes in one frame")
        blobs.append(read(n))
    return header, blobs


def encode(x, blobs: list, functions: list, depth: int = 0):
    """``x`` as plain data; arrays go to ``blobs``, callables to ``functions`` (handles)."""
    if depth > MAX_DEPTH:
        raise ValueError("the value is nested too deep")
    if x is None:
        return None
    if isinstance(x, bool):
        return bool(x)
    if isinstance(x, str):
        return str(x)
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        f = float(x)
        return f if math.isfinite(f) else {"$f": repr(f)}
    if isinstance(x, np.generic) and x.dtype.kind in "biuf":
        return encode(x.item(), blobs, functions, depth)
    if isinstance(x, (list, tuple)):
        items = [encode(v, blobs, functions, depth + 1) for v in x]
        return items if isinstance(x, list) else {"$t": items}
    if isinstance(x, dict):
        return {"$d": [[encode(k, blobs, functions, depth + 1),
                        encode(v, blobs, functions, depth + 1)] for k, v in x.items()]}
    if callable(x) and not isinstance(x, np.ndarray):
        functions.append(x)
        return {"$fn": len(functions) - 1}
    a = x if type(x) is np.ndarray else np.asarray(x)  # array-likes convert here, not there
    if a.dtype.kind not in "biuf":
        raise TypeError(f"a {type(x).__name__} is not plain data (numbers, strings, lists, "
                        f"tuples, dicts, numeric numpy arrays)")
    a = a.astype(a.dtype.newbyteorder("<"), order="C", copy=False)  # 0-d stays 0-d
    blobs.append(a.tobytes())
    return {"$a": [len(blobs) - 1, a.dtype.str, list(a.shape)]}


#: The dtypes an array may cross in (little-endian numbers and booleans)
DTYPES = frozenset(np.dtype(t).newbyteorder("<").str for t in (
    "b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8"))


def _array(v, blobs: list) -> np.ndarray:
    """``[index, dtype, shape]`` and its blob: the array, when the dtype is one of `DTYPES`,
    the shape non-negative integers and the blob exactly that many bytes (a writable copy)."""
    if not (type(v) is list and len(v) == 3 and type(v[0]) is int and 0 <= v[0] < len(blobs)
            and type(v[1]) is str and v[1] in DTYPES and type(v[2]) is list
            and len(v[2]) <= 32 and all(type(n) is int and n >= 0 for n in v[2])):
        raise ValueError(f"not an array of plain data: {str(v)[:80]}")
    dtype, shape, blob = np.dtype(v[1]), tuple(v[2]), blobs[v[0]]
    if math.prod(shape) * dtype.itemsize != len(blob):
        raise ValueError(f"an array of shape {shape} and dtype {dtype} is not {len(blob)} bytes")
    return np.frombuffer(blob, dtype=dtype).reshape(shape).astype(dtype.newbyteorder("="))


def decode(x, blobs: list, function=None, depth: int = 0):
    """The inverse of `encode`; ``function(tag, index)`` makes ``$fn`` / ``$cb`` values."""
    if depth > MAX_DEPTH:
        raise ValueError("the value is nested too deep")
    if x is None or type(x) in (bool, int, float, str):
        return x
    if type(x) is list:
        return [decode(v, blobs, function, depth + 1) for v in x]
    if type(x) is dict and len(x) == 1:
        (tag, v), = x.items()
        if tag == "$f" and v in ("nan", "inf", "-inf"):
            return float(v)
        if tag == "$t" and type(v) is list:
            return tuple(decode(i, blobs, function, depth + 1) for i in v)
        if tag == "$d" and type(v) is list:
            return {decode(k, blobs, function, depth + 1): decode(i, blobs, function, depth + 1)
                    for k, i in v}
        if tag == "$a":
            return _array(v, blobs)
        if tag in ("$fn", "$cb") and type(v) is int and function is not None:
            return function(tag, v)
    raise ValueError(f"not plain data: {str(x)[:80]}")



def round_trip(x):
    """``x`` as the other side of the channel receives it: encoded and decoded again, functions
    passed through by handle (what student mode does with a student's answer, in one process)."""
    blobs: list = []
    functions: list = []
    return decode(encode(x, blobs, functions), blobs, lambda tag, i: functions[i])


def uses(f, names) -> list:
    """The names among ``names`` that ``f``'s code refers to (its nested functions included)."""
    found, codes = set(), [getattr(f, "__code__", None)]
    while codes:
        code = codes.pop()
        if code is not None:
            found.update(n for n in code.co_names if n in names)
            codes += [c for c in code.co_consts if hasattr(c, "co_names")]
    return sorted(found - {getattr(f, "__name__", "")})

