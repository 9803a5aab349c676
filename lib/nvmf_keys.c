// SPDX-License-Identifier: GPL-2.0-or-later
/* The remote keys of an NVMe/RDMA queue's data buffer (include/rocectl/nvmf_keys.h). */
#include <string.h>

#include "rocectl/nvmf_keys.h"

enum rctl_nvmf_dir rctl_nvme_data_dir(const struct rctl_nvme_cmd *c, uint32_t len)
{
	uint8_t op = c->opc == RCTL_NVME_OPC_FABRICS ? c->fctype : c->opc;

	if (!len)
		return RCTL_NVMF_DIR_NONE;
	return op & 1 ? RCTL_NVMF_DIR_TO_CTRL : RCTL_NVMF_DIR_TO_HOST;
}

bool rctl_nvmf_keys_fit(uint32_t max_mr, uint32_t used, uint16_t nslots)
{
	return used <= max_mr && 2u * nslots <= max_mr - used;
}

uint32_t rctl_nvmf_keys_count(const struct rctl_nvmf_keys *k)
{
	return k->per_slot ? 2u * k->nslots : 2u;
}

/* Even MRs: to the host (target writes); odd: to the controller (target reads). */
void rctl_nvmf_keys_mr(const struct rctl_nvmf_keys *k, uint32_t i, uint64_t *addr,
		       size_t *len, enum rctl_nvmf_dir *dir)
{
	*dir = i & 1 ? RCTL_NVMF_DIR_TO_CTRL : RCTL_NVMF_DIR_TO_HOST;
	if (k->per_slot) {
		*addr = k->base + (uint64_t)(i / 2) * k->buf_size;
		*len = k->buf_size;
	} else {
		*addr = k->base;
		*len = (size_t)k->nslots * k->buf_size;
	}
}

uint32_t rctl_nvmf_keys_index(const struct rctl_nvmf_keys *k, uint16_t slot,
			      enum rctl_nvmf_dir dir)
{
	uint32_t odd = dir == RCTL_NVMF_DIR_TO_CTRL;

	return k->per_slot ? 2u * slot + odd : odd;
}

void rctl_nvmf_keys_sgl(const struct rctl_nvmf_keys *k, const uint32_t *rkeys,
			uint16_t slot, struct rctl_nvme_cmd *c, uint32_t len)
{
	enum rctl_nvmf_dir dir = rctl_nvme_data_dir(c, len);

	memset(&c->sgl, 0, sizeof(c->sgl));
	if (dir == RCTL_NVMF_DIR_NONE)
		return;
	c->sgl.addr = k->base + (uint64_t)slot * k->buf_size;
	c->sgl.len = len;
	c->sgl.key = rkeys[rctl_nvmf_keys_index(k, slot, dir)];
}
