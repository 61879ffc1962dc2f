#ifndef TASKGRAPH_FILE_ACCESS_TRACE_H
#define TASKGRAPH_FILE_ACCESS_TRACE_H

// The file-access tracer of `taskgraph run --lint`: a library loaded into an `exec` program with
// LD_PRELOAD (libTaskGraphFileTrace.so), never linked into taskgraph itself. It exports no API of
// its own: it interposes libc's open, openat, creat, fopen, freopen, rename, renameat, renameat2,
// unlink and unlinkat (with their 64-bit and fortified variants) and, after each call that
// succeeds, appends one record per access to the file that TASKGRAPH_FILE_TRACE names:
//
//   r/absolute/path\0   opened for reading (O_RDONLY, fopen "r"; O_RDWR without O_TRUNC adds a w)
//   w/absolute/path\0   opened for writing, created, truncated, or the target of a rename
//   d/absolute/path\0   removed, or the source of a rename
//
// Paths are made absolute (against the current directory or the directory file descriptor) but
// not normalized: `..` and symbolic links stay as the program wrote them. Each record is one
// write(2) on a descriptor opened with O_APPEND for that record alone, so the records of a
// program's children (which inherit LD_PRELOAD) land whole, in order, in the same file, and no
// descriptor of the program is ever used or kept. Paths under /proc, /dev and /sys are left out.
// Written by TraceRecords.c; FileAccessTrace.swift reads it.

/// The environment variable naming the file the records are appended to.
#define TASKGRAPH_FILE_TRACE_VARIABLE "TASKGRAPH_FILE_TRACE"

#endif
