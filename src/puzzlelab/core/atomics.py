"""Atomic read-modify-write on array slots, for kernels that threads run side by side.

Numba offers atomics on the GPU only (numba.cuda.atomic); on the CPU a kernel run by
several Python threads at once (the kernels release the GIL) that does `a[i] |= bit`
can lose another thread's bit: both read the old byte, each writes its own bit back.
These two intrinsics emit LLVM's `atomicrmw` (x86: LOCK OR / LOCK XADD), which returns
the slot's value before the update, so exactly one thread sees a bit go from 0 to 1.
Ordering is `monotonic` (relaxed): the update is indivisible, and threads meet at the
end of their work (a thread join), which orders everything written before it.
"""

from __future__ import annotations

import numba
from numba import types
from numba.extending import intrinsic

__all__ = ["atomic_or_u8", "atomic_xor_u8", "atomic_add_i64", "atomic_cas_u64"]


def _atomic_rmw(op: str, dtype):
    """An intrinsic f(arr, index, value) doing `op` atomically on arr[index] (1-D,
    C-contiguous, of `dtype`); returns the old value."""

    @intrinsic
    def _impl(typingctx, arr, index, value):
        if not (isinstance(arr, types.Array) and arr.dtype == dtype and arr.ndim == 1):
            return None
        if not (isinstance(index, types.Integer) and isinstance(value, types.Integer)):
            return None
        sig = dtype(arr, index, value)

        def codegen(context, builder, signature, args):
            arr_val, idx, val = args
            ary = context.make_array(signature.args[0])(context, builder, arr_val)
            idx = context.cast(builder, idx, signature.args[1], types.intp)
            val = context.cast(builder, val, signature.args[2], dtype)
            ptr = builder.gep(ary.data, [idx])
            return builder.atomic_rmw(op, ptr, val, "monotonic")

        return sig, codegen

    return _impl


_or_u8 = _atomic_rmw("or", types.uint8)
_xor_u8 = _atomic_rmw("xor", types.uint8)
_add_i64 = _atomic_rmw("add", types.int64)


@numba.njit(cache=True, nogil=True, inline="always")
def atomic_or_u8(arr, index, bits):
    """arr[index] |= bits as one indivisible step (arr: uint8); returns the old byte."""
    return _or_u8(arr, index, bits)


@numba.njit(cache=True, nogil=True, inline="always")
def atomic_xor_u8(arr, index, bits):
    """arr[index] ^= bits as one indivisible step (arr: uint8); returns the old byte.
    (The two-bit BFS turns a frontier field into `old` with it while other threads OR
    codes into the byte's other fields.)"""
    return _xor_u8(arr, index, bits)


@numba.njit(cache=True, nogil=True, inline="always")
def atomic_add_i64(arr, index, value):
    """arr[index] += value as one indivisible step (arr: int64); returns the old value."""
    return _add_i64(arr, index, value)


@intrinsic
def _cas_u64(typingctx, arr, index, expected, new):
    if not (isinstance(arr, types.Array) and arr.dtype == types.uint64 and arr.ndim == 1):
        return None
    sig = types.uint64(arr, index, expected, new)

    def codegen(context, builder, signature, args):
        arr_val, idx, old, val = args
        ary = context.make_array(signature.args[0])(context, builder, arr_val)
        idx = context.cast(builder, idx, signature.args[1], types.intp)
        old = context.cast(builder, old, signature.args[2], types.uint64)
        val = context.cast(builder, val, signature.args[3], types.uint64)
        ptr = builder.gep(ary.data, [idx])
        pair = builder.cmpxchg(ptr, old, val, "monotonic", "monotonic")
        return builder.extract_value(pair, 0)

    return sig, codegen


@numba.njit(cache=True, nogil=True, inline="always")
def atomic_cas_u64(arr, index, expected, new):
    """If arr[index] == expected, set it to new, as one indivisible step (arr: uint64);
    returns the value found (== expected when the swap happened). A table shared by
    threads claims an empty slot with it (coins/bidir/threads.py)."""
    return _cas_u64(arr, index, expected, new)
