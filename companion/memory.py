"""The long-running commands' memory: malloc set up for big picture buffers and many threads.

``serve`` and ``demo`` run for hours, reading pictures of several megabytes many times a second
beside a web server of many worker threads. With glibc's defaults the resident memory of the camera
demo climbed from game to game with nothing alive to show for it (Python's own objects stayed flat,
measured with tracemalloc): a freed picture buffer raises malloc's threshold for handing big blocks
to the system by themselves, so the next ones are cut from the heap, which then cannot shrink; and
each thread that allocates gets an arena of its own (up to eight per core). :func:`tune` sets a fixed
threshold of 1 MiB (``mallopt(M_MMAP_THRESHOLD)``: a buffer that big is mapped on its own and
returned when freed) and at most two arenas (``M_ARENA_MAX``), as the ``MALLOC_MMAP_THRESHOLD_``
and ``MALLOC_ARENA_MAX`` environment variables would; :func:`trim` hands memory malloc holds free
back to the system (``malloc_trim``). Both do nothing where the C library is not glibc.
benchmarks/demo_memory.py measures the effect (docs/benchmarks.md, "Demo").
"""

from __future__ import annotations

import ctypes
import platform
import sys

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter numbers (malloc.h)
M_ARENA_MAX = -8
MMAP_THRESHOLD = 1 << 20
ARENAS = 2


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


def tune(mmap_threshold: int = MMAP_THRESHOLD, arenas: int = ARENAS) -> bool:
    """Set malloc up for this process from now on (module docstring); True when done."""
    libc = _glibc()
    if libc is None:
        return False
    return bool(libc.mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 and libc.mallopt(M_ARENA_MAX, arenas) == 1)


def trim() -> bool:
    """Give the memory malloc holds free back to the system; True when some was released."""
    libc = _glibc()
    return bool(libc is not None and libc.malloc_trim(0) == 1)
