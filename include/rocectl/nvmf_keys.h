/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The remote keys an NVMe/RDMA host gives its target (lib/nvmf_keys.c), pure
 * bookkeeping over what lib/nvmf_rdma.c does with verbs. Each slot's data
 * buffer has a type 2 memory window of its own; for a command that moves
 * data by keyed SGL the window is bound to that command's bytes only, with
 * the one remote right its direction needs (remote write for a read, remote
 * read for a write), under a new rkey; the command asks the target to
 * invalidate that rkey with its response (keyed SGL subtype Invalidate Key,
 * answered by Send with Invalidate), and the host invalidates it itself when
 * the response did not. A window is bound again only once it is free.
 *
 * Why windows (measured in the lab, rxe on kernel 6.1, rdma-core 44, one TCG
 * vCPU): ibv_reg_mr + ibv_dereg_mr of 4 KiB cost 270 us of CPU per pair, more
 * than a whole I/O; ibv_rereg_mr is EOPNOTSUPP on rxe; a bind is one more
 * work request in the chain the command's send is posted in (no system
 * call), and its invalidation rides on the target's response.
 */
#ifndef ROCECTL_NVMF_KEYS_H
#define ROCECTL_NVMF_KEYS_H

#include <stdbool.h>
#include <stdint.h>

/* Remote rights of a window (lib/nvmf_rdma.c maps them to IBV_ACCESS_*). */
enum { RCTL_KEY_REMOTE_READ = 1, RCTL_KEY_REMOTE_WRITE = 2 };

struct rctl_key_win {
	uint32_t rkey;		/* the last rkey bound (at first: the window's own) */
	bool bound;		/* valid for the target: not yet invalidated */
	uint8_t rights;		/* of the binding */
	uint64_t addr;		/* what it covers */
	uint32_t len;
};

/* A binding to post: the window's rkey now (the verbs' mw->rkey), its next one, what it grants. */
struct rctl_key_bind {
	uint32_t old_rkey, rkey;
	uint64_t addr;
	uint32_t len;
	uint8_t rights;
};

/* What the response of a window's command says of it (rctl_key_done()). */
enum rctl_key_after {
	RCTL_KEY_FREED,		/* invalidated by the target, or never bound */
	RCTL_KEY_LOCAL_INV,	/* still valid: the host invalidates it (rctl_key_invalidated()) */
	RCTL_KEY_WRONG,		/* the target invalidated an rkey this command did not carry */
};

/* A window that has the rkey the verbs gave it and grants nothing. */
void rctl_key_init(struct rctl_key_win *w, uint32_t rkey);

/*
 * The rights for a command's data direction: bits 1:0 of its opcode (of
 * FCTYPE for a Fabrics command; NVMe Base 2.0 figure 88, NVMe-oF 1.1 figure
 * 9): 01b host to controller (the target reads), 10b controller to host (the
 * target writes), 11b both; 0 for 00b, no data.
 */
uint8_t rctl_key_rights(uint8_t opc, uint8_t fctype);

/*
 * Bind w to [addr, addr + len) with rights, under the next rkey (the key's
 * low byte advanced, as ibv_inc_rkey()): fills *b, 0; -EBUSY while w is still
 * bound, -EINVAL for no bytes or no rights.
 */
int rctl_key_bind(struct rctl_key_win *w, uint64_t addr, uint32_t len, uint8_t rights,
		  struct rctl_key_bind *b);

/* The response of w's command: inv, the completion's invalidated rkey (inv_rkey). */
enum rctl_key_after rctl_key_done(struct rctl_key_win *w, bool inv, uint32_t inv_rkey);

/* The host's own Local Invalidate of w is posted (ahead of any later bind). */
void rctl_key_invalidated(struct rctl_key_win *w);

#endif
