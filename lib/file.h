/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File helpers for tests and probes that need their pages in the page
 * cache, where the payload's 9p share does not keep them: copies on tmpfs.
 */
#ifndef RTBPF_FILE_H
#define RTBPF_FILE_H

/* Copy @from to @to (mode 0755): 0 or -errno. */
int copy_file(const char *from, const char *to);
/*
 * Run from a copy of this program at @copy: unless @env is set, copy
 * /proc/self/exe there and exec it with @env=1.  Returns only if that
 * fails, or in the copy at once; getenv(@env) tells which.
 */
void exec_from_copy(const char *copy, const char *env);

#endif
