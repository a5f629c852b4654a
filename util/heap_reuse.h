#pragma once
// How the C allocator treats the large temporaries of the model fits. A fit of
// a 100,000-point series allocates and frees the same few-MB least-squares
// matrices and columns thousands of times; glibc serves each from fresh mmap
// or trimmed heap pages, so every one is page-faulted in again: 0.8 of the
// 3.15 s of CPU of `predict` of one series x 100,000 P was the kernel zeroing
// pages (perf, issue 19). Keeping freed blocks under 32 MiB in the heap for
// reuse (the mmap threshold at 32 MiB, the trim threshold at 256 MiB) took it
// to ~0.4 s, same peak RSS, same output.
namespace qnm {

/// Blocks under 32 MiB come from the heap and freed memory stays there for
/// reuse up to 256 MiB above the last block in use (mallopt; glibc only, a
/// no-op elsewhere). Call once, after reading and before the fits.
void KeepFreedBlocksForReuse();

/// Gives the pages of freed heap memory back to the system (malloc_trim): after a
/// million records are freed, before the next large allocations.
void ReturnFreedPages();

/// Between reading and fitting: what reading freed is given back (~130 MB of a million rows),
/// what the fits free is kept for reuse (KeepFreedBlocksForReuse). Reading keeps the
/// allocator's defaults, as every reader (OTF2's included) expects.
void PrepareHeapForFits();

}  // namespace qnm
