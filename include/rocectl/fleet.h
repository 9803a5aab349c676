/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check and doctor over a fleet's snapshots (lib/fleet.c): each snapshot is
 * loaded, judged with the same rules as one host, summarised and freed before
 * the next, so memory grows with the summaries (a few kB a host), never with
 * the snapshots. A summary keeps what the hosts x areas table, the per-host
 * findings, the metrics and the grouping by switch, driver or rule need.
 * Unreadable snapshots are kept by name with the reason, and counted.
 */
#ifndef ROCECTL_FLEET_H
#define ROCECTL_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/compare.h"
#include "rocectl/model.h"
#include "rocectl/rules.h"

struct rctl_err;
struct rctl_range;

/* One RoCE port and the switch port LLDP found at its other end. */
struct rctl_fleet_link {
	char device[RCTL_NAME_LEN];
	uint32_t port;
	char netdev[RCTL_IFNAME_LEN];
	char family[RCTL_CMP_VAL_LEN];	/* "mlx5 inbox", "bnxt_re out-of-tree" */
	bool has_peer;			/* an LLDP neighbour was read */
	char sw[RCTL_LLDP_ID_LEN];	/* its system name, else its chassis id */
	char sw_port[RCTL_LLDP_ID_LEN];
	char chassis_id[RCTL_LLDP_ID_LEN];
	char source[16];
};

/* One metric series of a finding: findings with the same labels hold the worst. */
struct rctl_fleet_series {
	const char *id;			/* rule id, static */
	enum rctl_area area;
	enum rctl_status status;
	char device[RCTL_NAME_LEN];
	uint32_t port;
	char netdev[RCTL_IFNAME_LEN];
	bool has_ratio;			/* the loss rate, measured */
	double ratio;
};

/* A cell of the hosts x areas table. */
struct rctl_fleet_cell {
	bool ran;			/* judged (counters: the snapshot has deltas) */
	uint32_t n;			/* findings, passes included */
	enum rctl_status worst;
	const char *first;		/* rule id of the first finding of that status */
};

struct rctl_fleet_host {
	char file[RCTL_CMP_FILE_LEN];
	char hostname[RCTL_NAME_LEN];
	int64_t time;			/* the snapshot's own time; 0 unknown */
	double sample_interval_s;
	int exit;			/* rctl_report_exit() of its report */
	uint32_t count[RCTL_STATUS_N];
	struct rctl_fleet_cell area[RCTL_AREA_N];
	struct rctl_finding *f;		/* the findings that are no pass, in order */
	uint32_t n_f;
	struct rctl_fleet_series *series;
	uint32_t n_series;
	struct rctl_fleet_link *links;
	uint32_t n_links;
};

struct rctl_fleet {
	struct rctl_fleet_host *hosts;
	uint32_t n, cap;
	/* compare's rows of every host (its outliers) and the unreadable inputs */
	struct rctl_cmp cmp;
};

/* What a judge of one snapshot needs: the intent, areas and rules of the run. */
struct rctl_fleet_judge {
	const struct rctl_intent *in;
	unsigned int areas;
	const char *filter;			/* --dev, or NULL */
	const struct rctl_rule *rules;
	unsigned int n_rules;
	const struct rctl_range *warn, *crit;	/* -w/-c on the loss rate */
};

/*
 * The snapshot files that "specs" name, each a file, a directory (its
 * "*.json" files and rpdcp's "*.json.HOST" copies, depth first down to 8
 * levels: Ansible's fetch puts each host's file under out/HOST/...) or a
 * glob(7) pattern. Sorted and without
 * repeats. A file that does not exist stays in the list (loading it names
 * it unreadable); a pattern that matches nothing, a directory without
 * snapshots and an unreadable directory are errors. *files is malloc'ed, each path too
 * (rctl_fleet_files_free()); 0 or -errno with e filled.
 */
int rctl_fleet_expand(const char *const *specs, unsigned int n, char ***files,
		      uint32_t *n_files, struct rctl_err *e);
void rctl_fleet_files_free(char **files, uint32_t n);

/* Whether "spec" names more than one snapshot (a directory or a pattern). */
bool rctl_fleet_spec_many(const char *spec);

/*
 * Load "file", judge it as j says, keep its summary and free the host. An
 * unreadable snapshot is added to fl->cmp.bad with its reason. -ENOMEM only.
 */
int rctl_fleet_add_file(struct rctl_fleet *fl, const char *file, const struct rctl_fleet_judge *j);
/* The same for a host already in memory (the tests, the benchmark). */
int rctl_fleet_add_host(struct rctl_fleet *fl, const char *file, const struct rctl_host *h,
			const struct rctl_fleet_judge *j);

/*
 * Hosts in the order a reader wants them: worst status first (fail,
 * unknown, warn, pass), then by name and file. Before rctl_fleet_groups():
 * members name hosts by index.
 */
void rctl_fleet_sort(struct rctl_fleet *fl);

/*
 * Which host summaries are their host's newest snapshot: keep[i] is false
 * when another summary of the same host name has a later time (at the same
 * time, a later file name). Metrics carry the host name, and one series
 * twice is what node_exporter refuses. keep has fl->n entries; -ENOMEM.
 */
int rctl_fleet_newest(const struct rctl_fleet *fl, bool *keep);

/*
 * Snapshot age. A snapshot is stale when it is older than max_age_s at "now"
 * (both seconds since the epoch), or its time is unknown.
 */
#define RCTL_FLEET_MAX_AGE_S (26 * 3600)
bool rctl_fleet_stale(const struct rctl_fleet_host *h, int64_t now, double max_age_s);
/* A snapshot's time as RFC 3339 in UTC ("2025-11-30T05:20:00Z"); NULL when unknown. */
const char *rctl_fleet_time(int64_t t, char *buf, size_t len);

/*
 * The fleet's exit status: the worst of the hosts' (fail 2 over unknown 3
 * over warn 1, as rctl_report_exit()), an unreadable snapshot counting as
 * unknown and a stale one as at least a warning.
 */
int rctl_fleet_exit(const struct rctl_fleet *fl, int64_t now, double max_age_s);
/* The status a host's exit status stands for (0 pass ... 2 fail, 3 unknown). */
enum rctl_status rctl_fleet_exit_status(int exit);
/* The host's first finding of its worst status: "pfc.prio_disabled mlx5_0/1"; NULL: it passed. */
const struct rctl_finding *rctl_fleet_first(const struct rctl_fleet_host *h);
/*
 * A cell of the hosts x areas table in a word: "ok", "warn", "unknown",
 * "FAIL"; "skip" when the area was not judged, "-" when it had nothing to.
 */
const char *rctl_fleet_cell_word(const struct rctl_fleet_cell *c);

/*
 * Grouping (--by): each group a key (the switch of an RDMA port, the driver
 * family of a port, a rule id) with its members, one per host. A switch or
 * family member's status is the host's worst; a rule member's, the worst of
 * that rule's findings on the host (only hosts where the rule did not pass
 * are members). Groups are ordered by failing, then unknown, then warning
 * members, most first, then by key; members by status, worst first, then by
 * host name.
 */
enum rctl_fleet_by { RCTL_FLEET_BY_NONE, RCTL_FLEET_BY_SWITCH, RCTL_FLEET_BY_DRIVER,
		     RCTL_FLEET_BY_RULE, RCTL_FLEET_BY_N };
/* "none", "switch", "driver", "rule"; NULL-terminated. */
extern const char *const rctl_fleet_by_names[RCTL_FLEET_BY_N + 1];
/* The key of hosts whose ports have no LLDP neighbour in the snapshot. */
#define RCTL_FLEET_NO_SWITCH "(no LLDP neighbour)"
/* The key of hosts without a RoCE port (--by switch and driver). */
#define RCTL_FLEET_NO_PORT "(no RoCE port)"

struct rctl_fleet_member {
	uint32_t host;			/* index in fl->hosts */
	enum rctl_status status;
	char where[RCTL_LLDP_ID_LEN * 2];	/* switch ports, or the targets, ", " */
};

struct rctl_fleet_group {
	char key[RCTL_LLDP_ID_LEN];
	uint32_t count[RCTL_STATUS_N];	/* members by status */
	char ports[256];		/* --by switch: the switch ports of the members
					   that are no pass, as ranges */
	struct rctl_fleet_member *m;
	uint32_t n;
};

int rctl_fleet_groups(const struct rctl_fleet *fl, enum rctl_fleet_by by,
		      struct rctl_fleet_group **out, uint32_t *n_out);
void rctl_fleet_groups_free(struct rctl_fleet_group *g, uint32_t n);

/*
 * Switch port names as ranges: "Ethernet1/1, Ethernet1/2, Ethernet1/3,
 * swp9" -> "Ethernet1/1-3, swp9" (a trailing number is the range; names are
 * sorted by prefix, then number). Truncated to len with "..." at the end.
 */
void rctl_fleet_port_ranges(const char *const *names, uint32_t n, char *buf, size_t len);

void rctl_fleet_free(struct rctl_fleet *fl);

#endif
