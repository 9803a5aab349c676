/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fleet's RoCE ports side by side: one row per port of every host, one
 * string per column, and the outliers of each column against the value most
 * ports share. Linear in the number of ports (one hash table per column).
 */
#ifndef ROCECTL_COMPARE_H
#define ROCECTL_COMPARE_H

#include <stdint.h>

#include "rocectl/model.h"

enum rctl_cmp_col {
	RCTL_CMP_TRUST, RCTL_CMP_DSCP, RCTL_CMP_MAP, RCTL_CMP_PFC, RCTL_CMP_CNP_DSCP,
	RCTL_CMP_CNP_PRIO, RCTL_CMP_TOS, RCTL_CMP_MODE, RCTL_CMP_GID, RCTL_CMP_MTU,
	RCTL_CMP_DCQCN, RCTL_CMP_FW, RCTL_CMP_DRIVER, RCTL_CMP_SW_PFC, RCTL_CMP_N
};

#define RCTL_CMP_VAL_LEN 80

/* JSON key of each column ("trust", "dscp_prio", ..., "fw_version"). */
extern const char *const rctl_cmp_keys[RCTL_CMP_N];

struct rctl_cmp_row {
	char host[RCTL_NAME_LEN];
	char target[RCTL_NAME_LEN * 2];
	/* The switch port by LLDP (not a column: it differs by design); "?" unknown. */
	char sw[RCTL_LLDP_ID_LEN];
	char sw_port[RCTL_LLDP_ID_LEN];
	char v[RCTL_CMP_N][RCTL_CMP_VAL_LEN];	/* "?" when it could not be read */
};

struct rctl_cmp {
	int dscp;			/* DSCP of the dscp_prio column */
	struct rctl_cmp_row *rows;
	uint32_t n, cap;
};

struct rctl_cmp_outlier {
	uint32_t row;
	enum rctl_cmp_col col;
	int32_t common;		/* row holding the majority value; -1: no majority */
};

/* Append the RoCE ports of h as rows; -ENOMEM. */
int rctl_cmp_add_host(struct rctl_cmp *c, const struct rctl_host *h);

/*
 * The outliers, row by row then column by column: a value shared by fewer
 * rows than the most common one, or every value of a column where no value
 * is shared by more than half of the rows. *out is malloc'ed; -ENOMEM.
 */
int rctl_cmp_outliers(const struct rctl_cmp *c, struct rctl_cmp_outlier **out,
		      uint32_t *n_out);

void rctl_cmp_free(struct rctl_cmp *c);

#endif
