/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network helpers for the tests: a veth pair made over rtnetlink (busybox's
 * ip cannot make one), and raw frames sent into it.  Frames sent on one end
 * arrive at the other, where XDP and tc ingress programs see them in the
 * veth's NAPI poll, that is in softirq context.
 */
#ifndef RTBPF_NET_H
#define RTBPF_NET_H

/* Create the pair @name <-> @peer and bring both up: 0 or -errno. */
int veth_create(const char *name, const char *peer);
/* Send @count broadcast frames out of @name: the number sent, or -errno. */
int veth_send(const char *name, int count);

#endif
