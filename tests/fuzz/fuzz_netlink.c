// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every netlink reply parser: the first byte picks it (nldev GET, PORT_GET,
 * STAT_GET hw counters, STAT_GET_STATUS optional counters, dcbnl IEEE_GET,
 * ethtool PAUSE_GET, 6: dcbnl SET reply, 7: an nldev RES_QP_GET or
 * RES_CM_ID_GET reply, parsed twice, the second time with the first's kernel
 * cm_ids ready for the join), the rest is one message as the kernel would
 * send it.
 * nlmsg_len is clamped to the input, as mnl_cb_run() guarantees, and the
 * buffer is padded to 4 bytes: libmnl walks attributes up to the aligned
 * end of the message, which the kernel pads (and rocectl's receive buffer
 * is 32 KiB, so it is always there).
 */
#include <linux/netlink.h>

#include "fuzz.h"
#include "rocectl/collect.h"
#include "rocectl/counters.h"

static void run(int which, const struct nlmsghdr *nlh)
{
	struct rctl_host h = { 0 };
	struct rctl_device d = { 0 };
	struct rctl_port p = { 0 };
	struct rctl_netdev nd = { 0 };
	struct rctl_opt_counters oc = { 0 };
	struct rctl_counter_set s = { 0 };
	struct rctl_res_ctx rc = { .res = &h.res };

	switch (which % 8) {
	case 0: rctl_rdma_parse_dev(nlh, &h); rctl_host_free(&h); break;
	case 1: rctl_rdma_parse_port(nlh, &d); free(d.ports); break;
	case 2: rctl_hw_counters_parse(nlh, &p); free(p.hw); break;
	case 3: rctl_opt_counters_parse(nlh, &oc); free(oc.c); break;
	case 4: rctl_dcb_parse(nlh, &nd); free(nd.app.apps); break;
	case 6: (void)rctl_dcb_set_status(nlh); break;
	case 7:
		rctl_res_parse(nlh, &rc);
		rctl_res_join_ready(&rc);
		rctl_res_parse(nlh, &rc);
		rctl_res_ctx_free(&rc);
		rctl_host_free(&h);
		break;
	default: rctl_pause_stats_parse(nlh, &s); free(s.c); break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nlmsghdr *nlh;

	if (size < 1 + sizeof(*nlh))
		return 0;
	/* malloc'ed: aligned as a receive buffer is; ends at the padding for ASan. */
	nlh = calloc(1, MNL_ALIGN(size - 1));
	if (!nlh)
		return 0;
	memcpy(nlh, data + 1, size - 1);
	if (nlh->nlmsg_len > size - 1 || nlh->nlmsg_len < sizeof(*nlh))
		nlh->nlmsg_len = size - 1;
	run(data[0], nlh);
	free(nlh);
	return 0;
}
