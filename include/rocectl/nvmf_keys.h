/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The remote keys of an NVMe/RDMA queue's data buffer (pure; the verbs are
 * lib/nvmf_rdma.c's). The buffer has one slot of buf_size bytes per command.
 * Each slot has two MRs: one the target may only write (the data of a command
 * that moves data to the host: a read) and one it may only read (a command
 * that moves data to the controller: a write, Connect), so a command's keyed
 * SGL reaches its own slot in its own direction. The MRs stay registered for
 * the queue's life (registering per command costs more than the I/O on rxe:
 * lib/nvmf_rdma.c, above q_verbs()). When the device cannot hold two MRs per
 * slot, one MR per direction spans the whole buffer: a key then reaches every
 * slot, never both directions.
 */
#ifndef ROCECTL_NVMF_KEYS_H
#define ROCECTL_NVMF_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/nvmf_wire.h"

/* Which way a command's data moves: the target's RDMA READ or RDMA WRITE. */
enum rctl_nvmf_dir {
	RCTL_NVMF_DIR_NONE,		/* no data: the null SGL, no key */
	RCTL_NVMF_DIR_TO_HOST,		/* the target writes the host's memory */
	RCTL_NVMF_DIR_TO_CTRL,		/* the target reads the host's memory */
};

/*
 * The direction nvmet-rdma moves len bytes of c in: opcode bit 0, the FCTYPE's
 * for Fabrics commands, set means host to controller (Linux
 * include/linux/nvme.h nvme_is_write(), which nvmet_data_dir() of
 * drivers/nvme/target/nvmet.h and so nvmet_rdma_map_sgl_keyed() use).
 */
enum rctl_nvmf_dir rctl_nvme_data_dir(const struct rctl_nvme_cmd *c, uint32_t len);

struct rctl_nvmf_keys {
	uint64_t base;			/* the data buffer's address */
	uint32_t buf_size;		/* of each slot */
	uint16_t nslots;
	bool per_slot;			/* false: one MR per direction over the buffer */
};

/* Two MRs per slot when 2 * nslots more fit under max_mr beside used. */
bool rctl_nvmf_keys_fit(uint32_t max_mr, uint32_t used, uint16_t nslots);
/* MRs k needs: 2 * nslots, or 2. */
uint32_t rctl_nvmf_keys_count(const struct rctl_nvmf_keys *k);
/* MR i of k: its bytes and the one direction it lets the target move. */
void rctl_nvmf_keys_mr(const struct rctl_nvmf_keys *k, uint32_t i, uint64_t *addr,
		       size_t *len, enum rctl_nvmf_dir *dir);
/* The MR whose key a command of slot moving data in dir carries. */
uint32_t rctl_nvmf_keys_index(const struct rctl_nvmf_keys *k, uint16_t slot,
			      enum rctl_nvmf_dir dir);
/*
 * c->sgl for len bytes of slot: keyed with rkeys[rctl_nvmf_keys_index()],
 * or the null SGL (no key) when no data moves.
 */
void rctl_nvmf_keys_sgl(const struct rctl_nvmf_keys *k, const uint32_t *rkeys,
			uint16_t slot, struct rctl_nvme_cmd *c, uint32_t len);

#endif
