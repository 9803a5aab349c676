// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text parsers of sysfs, debugfs and configfs files: MLNX_OFED
 * qos/dscp2prio (both shapes), qos/prio2buffer and qos/buffer_size rows,
 * the number files (cc parameters, rdma_cm ToS, PMA counters), and an NVMe-oF
 * controller's "address" and timer attributes (lib/nvme_host.c), and
 * MLNX_OFED's tc/PORT/traffic_class (lib/consumers.c).
 */
#include "fuzz.h"
#include "rocectl/collect.h"

/* Whatever the text, every field stays a bounded string; timers are >= -1. */
static void nvme_attrs(const char *text)
{
	struct rctl_nvme_ctrl c = { 0 };
	int32_t t = RCTL_NVME_TMO_NONE;

	rctl_nvme_parse_address(text, &c);
	if (memchr(c.traddr, 0, sizeof(c.traddr)) == NULL ||
	    memchr(c.trsvcid, 0, sizeof(c.trsvcid)) == NULL ||
	    memchr(c.host_traddr, 0, sizeof(c.host_traddr)) == NULL ||
	    memchr(c.host_iface, 0, sizeof(c.host_iface)) == NULL)
		abort();
	if (!rctl_nvme_parse_tmo(text, &t) && t < RCTL_NVME_TMO_OFF)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t map[64] = { 0 }, u8[8] = { 0 };
	uint64_t u64[8] = { 0 }, v;
	uint32_t n;
	int g;
	char *text = fuzz_text(data, size);
	int i;

	if (!text)
		return 0;
	rctl_qos_parse_dscp2prio(text, map);
	for (i = 0; i < 64; i++)
		if (map[i] > 7)
			abort();
	rctl_qos_parse_rows(text, u8, NULL);
	rctl_qos_parse_rows(text, NULL, u64);
	rctl_sysfs_u64(text, 0, &v);
	rctl_sysfs_u64(text, 10, &v);
	nvme_attrs(text);
	if (!rctl_ofed_tclass_parse(text, &g, &n) && (g < -1 || g > 255))
		abort();
	free(text);
	return 0;
}
