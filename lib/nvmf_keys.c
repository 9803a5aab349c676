// SPDX-License-Identifier: GPL-2.0-or-later
/* The remote keys of an NVMe/RDMA queue's data buffers (include/rocectl/nvmf_keys.h). */
#include <errno.h>

#include "rocectl/nvmf_keys.h"
#include "rocectl/nvmf_wire.h"

void rctl_key_init(struct rctl_key_win *w, uint32_t rkey)
{
	*w = (struct rctl_key_win){ .rkey = rkey };
}

uint8_t rctl_key_rights(uint8_t opc, uint8_t fctype)
{
	uint8_t dir = (opc == RCTL_NVME_OPC_FABRICS ? fctype : opc) & 0x3;

	return (dir & 0x1 ? RCTL_KEY_REMOTE_READ : 0) | (dir & 0x2 ? RCTL_KEY_REMOTE_WRITE : 0);
}

int rctl_key_bind(struct rctl_key_win *w, uint64_t addr, uint32_t len, uint8_t rights,
		  struct rctl_key_bind *b)
{
	if (w->bound)
		return -EBUSY;
	if (!len || !rights)
		return -EINVAL;
	/* the index bits (31:8) name the window; the key byte changes with every binding */
	*b = (struct rctl_key_bind){
		.old_rkey = w->rkey, .rkey = (w->rkey & ~0xffu) | ((w->rkey + 1) & 0xffu),
		.addr = addr, .len = len, .rights = rights,
	};
	*w = (struct rctl_key_win){ .rkey = b->rkey, .bound = true, .rights = rights,
				    .addr = addr, .len = len };
	return 0;
}

enum rctl_key_after rctl_key_done(struct rctl_key_win *w, bool inv, uint32_t inv_rkey)
{
	if (inv && (!w->bound || inv_rkey != w->rkey))
		return RCTL_KEY_WRONG;
	if (!w->bound)
		return RCTL_KEY_FREED;
	if (!inv)
		return RCTL_KEY_LOCAL_INV;
	rctl_key_invalidated(w);
	return RCTL_KEY_FREED;
}

void rctl_key_invalidated(struct rctl_key_win *w)
{
	w->bound = false;
	w->rights = 0;
	w->addr = 0;
	w->len = 0;
}
