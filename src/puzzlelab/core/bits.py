"""Numba intrinsics that plain numba lacks, and small bit helpers built on them.

Every puzzle here is a bitboard search, and the inner loops live on three machine
instructions: population count, count-trailing-zeros and count-leading-zeros. Numba
does not expose them, so they are emitted straight as LLVM intrinsics (`llvm.ctpop`,
`llvm.cttz`, `llvm.ctlz`), which compile to POPCNT / TZCNT / LZCNT where the CPU has them.

Two more intrinsics let a kernel honour a `Budget` without returning to Python:
`monotonic_ns()` reads CLOCK_MONOTONIC through libc's `clock_gettime` (about 20 ns a
call, the same clock as Python's `time.monotonic_ns`), and `volatile_load(a, i)` reads
an array slot that another thread may write (the cancel flag), so LLVM can neither
hoist nor cache the read. Both refer to libc by symbol name, so kernels that use them
can still be cached on disk (`cache=True`).

All functions take and return 64-bit integers; pass `np.uint64` values for masks.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = [
    "popcount",
    "ctz",
    "clz",
    "lowest_bit",
    "clear_lowest_bit",
    "bit_positions",
    "monotonic_ns",
    "volatile_load",
]

_I64 = ir.IntType(64)
_I32 = ir.IntType(32)


def _unary_llvm_intrinsic(name: str, zero_is_poison: bool | None):
    """Build a numba intrinsic calling `llvm.<name>.i64` on one 64-bit integer."""

    @intrinsic
    def _impl(typingctx, x):
        if not isinstance(x, types.Integer):
            return None
        sig = types.uint64(x)

        def codegen(context, builder, signature, args):
            (value,) = args
            value = context.cast(builder, value, signature.args[0], types.uint64)
            fnty = ir.FunctionType(_I64, [_I64] if zero_is_poison is None else [_I64, ir.IntType(1)])
            fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.{name}.i64")
            call_args = [value] if zero_is_poison is None else [value, ir.Constant(ir.IntType(1), 0)]
            return builder.call(fn, call_args)

        return sig, codegen

    return _impl


_ctpop = _unary_llvm_intrinsic("ctpop", None)
# The second argument 0 makes cttz(0) = ctlz(0) = 64 well defined (not poison).
_cttz = _unary_llvm_intrinsic("cttz", False)
_ctlz = _unary_llvm_intrinsic("ctlz", False)


@numba.njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a 64-bit integer."""
    return _ctpop(x)


@numba.njit(cache=True, inline="always")
def ctz(x):
    """Index of the lowest set bit; 64 for zero."""
    return _cttz(x)


@numba.njit(cache=True, inline="always")
def clz(x):
    """Number of zero bits above the highest set bit; 64 for zero."""
    return _ctlz(x)


@numba.njit(cache=True, inline="always")
def lowest_bit(x):
    """The lowest set bit of x as a mask (0 for x = 0)."""
    x = np.uint64(x)
    return x & (~x + np.uint64(1))


@numba.njit(cache=True, inline="always")
def clear_lowest_bit(x):
    """x with its lowest set bit cleared."""
    x = np.uint64(x)
    return x & (x - np.uint64(1))


@numba.njit(cache=True)
def bit_positions(x):
    """Positions of the set bits of x, lowest first, as an int64 array."""
    x = np.uint64(x)
    out = np.empty(_ctpop(x), dtype=np.int64)
    i = 0
    while x:
        out[i] = _cttz(x)
        x &= x - np.uint64(1)
        i += 1
    return out


@intrinsic
def _monotonic_ns(typingctx):
    sig = types.int64()

    def codegen(context, builder, signature, args):
        timespec = ir.LiteralStructType([_I64, _I64])
        fnty = ir.FunctionType(_I32, [_I32, timespec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        clock_monotonic = ir.Constant(_I32, 1)  # CLOCK_MONOTONIC on Linux
        builder.call(clock_gettime, [clock_monotonic, ts])
        zero = ir.Constant(_I32, 0)
        sec = builder.load(builder.gep(ts, [zero, zero]))
        nsec = builder.load(builder.gep(ts, [zero, ir.Constant(_I32, 1)]))
        return builder.add(builder.mul(sec, ir.Constant(_I64, 1_000_000_000)), nsec)

    return sig, codegen


@numba.njit(cache=True, inline="always")
def monotonic_ns():
    """CLOCK_MONOTONIC in nanoseconds, callable from kernels; equals time.monotonic_ns()."""
    return _monotonic_ns()


@intrinsic
def _volatile_load_i64(typingctx, arr, index):
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and arr.ndim == 1):
        return None
    sig = types.int64(arr, index)

    def codegen(context, builder, signature, args):
        arr_val, idx = args
        ary = context.make_array(signature.args[0])(context, builder, arr_val)
        idx = context.cast(builder, idx, signature.args[1], types.intp)
        ptr = builder.gep(ary.data, [idx])
        # An atomic 'monotonic' load is re-read from memory every time and never hoisted
        # out of a loop, which is all a polled flag needs (llvmlite has no volatile load).
        return builder.load_atomic(ptr, "monotonic", 8)

    return sig, codegen


@numba.njit(cache=True, inline="always")
def volatile_load(arr, index):
    """arr[index] (int64), read from memory each call: for flags other threads set."""
    return _volatile_load_i64(arr, index)
