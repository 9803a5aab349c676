// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NVMe-oF wire decoders on target-supplied bytes: Identify Controller and
 * Namespace, the active NS list, the discovery log header and entries, CQEs,
 * the CM REP/REJ private data, and the limits derived from them.
 */
#include <stdio.h>

#include "fuzz.h"
#include "rocectl/nvmf_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t page[RCTL_NVME_IDENTIFY_SIZE];
	struct rctl_nvme_id_ctrl c;
	struct rctl_nvme_id_ns ns;
	struct rctl_nvmf_disc_hdr dh;
	struct rctl_nvmf_disc_entry de;
	struct rctl_nvme_cqe cqe;
	uint32_t ids[1024], bsz;
	uint16_t v16;
	char msg[256];

	memset(page, 0, sizeof(page));
	memcpy(page, data, size < sizeof(page) ? size : sizeof(page));
	rctl_nvme_id_ctrl_decode(page, &c);
	rctl_nvme_id_ns_decode(page, &ns);
	rctl_nvme_ns_list_decode(page, ids, 1024);
	rctl_nvmf_disc_hdr_decode(page, &dh);
	rctl_nvmf_disc_entry_decode(page, &de);
	rctl_nvme_cqe_decode(page, &cqe);
	rctl_nvme_status_str(msg, sizeof(msg), cqe.status, cqe.dw0, page[0] & 1);
	rctl_nvmf_cm_rep(data, size, &v16);
	rctl_nvmf_cm_rej(data, size, &v16);
	bsz = rctl_nvme_block_size(ns.lbads);
	if (bsz && (bsz < 512 || bsz > 65536 || (bsz & (bsz - 1))))
		abort();
	rctl_nvme_mdts_bytes(c.mdts);
	rctl_nvme_inline_max(c.ioccsz);
	snprintf(msg, sizeof(msg), "%s %s %s %s", de.subnqn, de.traddr,
		 rctl_nvmf_trtype_name(de.trtype), rctl_nvmf_subtype_name(de.subtype));
	return 0;
}
