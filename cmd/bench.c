// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl bench: prove the fabric with real traffic.
 *   bench nvmf   a userspace NVMe-oF host over RDMA or TCP (cmd/bench_nvmf.c)
 *   bench rdma   raw RDMA latency and bandwidth (cmd/bench_rdma.c)
 * (their latency printers are in cmd/common.c).
 */
#include "cmd.h"

static const struct rctl_cmd *const bench_sub[] = {
	&cmd_bench_nvmf,
	&cmd_bench_rdma,
	NULL
};

const struct rctl_cmd cmd_bench = {
	.name = "bench",
	.summary = "prove the fabric with real traffic",
	.sub = bench_sub,
};
