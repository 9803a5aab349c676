/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fleet's RoCE ports side by side: one row per port of every host, one
 * string per column, and the outliers of each column against the value most
 * ports share. Linear in the number of ports (one hash table per column).
 */
#ifndef ROCECTL_COMPARE_H
#define ROCECTL_COMPARE_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/model.h"

enum rctl_cmp_col {
	RCTL_CMP_TRUST, RCTL_CMP_DSCP, RCTL_CMP_MAP, RCTL_CMP_PFC, RCTL_CMP_CNP_DSCP,
	RCTL_CMP_CNP_PRIO, RCTL_CMP_TOS, RCTL_CMP_MODE, RCTL_CMP_GID, RCTL_CMP_MTU,
	RCTL_CMP_DCQCN, RCTL_CMP_FW, RCTL_CMP_DRIVER, RCTL_CMP_SW_PFC, RCTL_CMP_CONSUMERS,
	RCTL_CMP_CONSUMER_TC, RCTL_CMP_N
};

#define RCTL_CMP_VAL_LEN 192	/* a host's consumers and their classes fit */
#define RCTL_CMP_FILE_LEN 256

/* JSON key of each column ("trust", "dscp_prio", ..., "fw_version"). */
extern const char *const rctl_cmp_keys[RCTL_CMP_N];

/*
 * What a port is compared with (--by): ports of the same driver family
 * (the driver, inbox or out-of-tree: defaults and parameter sets differ by
 * vendor and by driver release line, so a mixed fleet has no single
 * "normal"), or every port. Firmware is compared only among ports whose
 * firmware shares its major version (on mlx5 the major is the ConnectX
 * generation, on bnxt and ice the release line).
 */
enum rctl_cmp_by { RCTL_CMP_BY_DRIVER, RCTL_CMP_BY_NONE, RCTL_CMP_BY_SWITCH, RCTL_CMP_BY_N };
/*
 * "driver", "none", "switch" (compared as driver; cmd/compare.c prints the
 * outliers grouped under each port's LLDP switch); NULL-terminated.
 */
extern const char *const rctl_cmp_by_names[RCTL_CMP_BY_N + 1];

/* A value that was not read; an empty value does not apply to the port. */
#define RCTL_CMP_UNKNOWN "?"

struct rctl_cmp_row {
	char host[RCTL_NAME_LEN];
	char target[RCTL_NAME_LEN * 2];
	char file[RCTL_CMP_FILE_LEN];		/* the snapshot it came from */
	char group[RCTL_CMP_VAL_LEN];		/* "mlx5 inbox"; "" with --by none */
	/* The switch port by LLDP (not a column: it differs by design); "?" unknown. */
	char sw[RCTL_LLDP_ID_LEN];
	char sw_port[RCTL_LLDP_ID_LEN];
	char v[RCTL_CMP_N][RCTL_CMP_VAL_LEN];	/* RCTL_CMP_UNKNOWN, or "" */
};

/* An input that could not be read: named, and left out of the rows. */
struct rctl_cmp_bad {
	char file[RCTL_CMP_FILE_LEN];
	char reason[256];
};

struct rctl_cmp {
	int dscp;			/* DSCP of the dscp_prio column */
	enum rctl_cmp_by by;
	struct rctl_cmp_row *rows;
	uint32_t n, cap;
	struct rctl_cmp_bad *bad;
	uint32_t n_bad;
};

struct rctl_cmp_outlier {
	uint32_t row;
	enum rctl_cmp_col col;
	int32_t common;		/* row holding the majority value; -1: no majority */
};

/*
 * The JSON type of a column, the same as the key has in every other command
 * (docs/json.md): a count is a number; a set of priorities ("0,3", "none",
 * "-": a DSCP no priority maps) is an array of numbers, as devices -j writes
 * pfc_prios; the rest are strings.
 */
enum rctl_cmp_type { RCTL_CMP_T_STRING, RCTL_CMP_T_NUMBER, RCTL_CMP_T_PRIOS };
enum rctl_cmp_type rctl_cmp_type(enum rctl_cmp_col col);
/* The priorities of a RCTL_CMP_T_PRIOS value as bits 0-7; -EINVAL if it is none. */
int rctl_cmp_prios(const char *v, uint8_t *mask);

/* Append the RoCE ports of h, read from "file", as rows; -ENOMEM. */
int rctl_cmp_add_host(struct rctl_cmp *c, const struct rctl_host *h, const char *file);
/*
 * Whether text is a stream of snapshots rather than one: lines behind pdsh's
 * "host: " ("pdsh -w h1,h2 rocectl collect -O -"), pdsh's own lines, or
 * several documents (rctl_pdsh_prefix(), lib/json.c: reach --matrix reads
 * the same streams).
 */
bool rctl_cmp_is_stream(const char *text);
/*
 * The rows of every snapshot of such a stream, read from "file"; each one
 * that cannot be read, and each host pdsh says did not answer, is a bad input
 * of file with why. -ENOMEM.
 */
int rctl_cmp_add_stream(struct rctl_cmp *c, const char *text, const char *file);
/* Note an input that could not be read, with why; -ENOMEM. */
int rctl_cmp_add_bad(struct rctl_cmp *c, const char *file, const char *reason);
/* Whether two rows share a host name (then each row names its file). */
bool rctl_cmp_hosts_repeat(const struct rctl_cmp *c);

/*
 * The outliers, row by row then column by column, each against the rows of
 * its group (--by): a value shared by fewer rows than the most common one,
 * or every value of a column where no value is shared by more than half of
 * the group. A value that does not apply ("") is never one and is not
 * counted. *out is malloc'ed; -ENOMEM.
 */
int rctl_cmp_outliers(const struct rctl_cmp *c, struct rctl_cmp_outlier **out,
		      uint32_t *n_out);

/* 3 when an input could not be read, else 1 with outliers, else 0. */
int rctl_cmp_exit(const struct rctl_cmp *c, uint32_t n_outliers);

void rctl_cmp_free(struct rctl_cmp *c);

#endif
