/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rocectl reach as a library: one probe run per target (lib/reach.c), many
 * targets at once with a bound on concurrency, the pure judgements around it
 * (MTU black-hole cause, target lists, the worst verdict: lib/reach_judge.c)
 * and the fleet matrix read back from reach's JSON documents
 * (lib/reach_matrix.c).
 */
#ifndef ROCECTL_REACH_H
#define ROCECTL_REACH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "rocectl/err.h"
#include "rocectl/probe.h"

#define RCTL_REACH_SWEEP_MAX 16384u	/* 4 × the largest RoCE MTU */
#define RCTL_REACH_MAX_TARGETS 4096u
#define RCTL_REACH_MAX_PARALLEL 64u

/* --mtu-sweep (lib/reach.c): the largest SEND that makes the round trip. */
struct rctl_sweep {
	uint32_t largest_ok;		/* 0: not even the smallest passed */
	uint32_t smallest_bad;		/* 0: everything up to the maximum passed */
	uint32_t max;
	unsigned int probes;
	char why[160];			/* how the smallest bad size failed */
};

/*
 * Powers of two from 64 to "max", then a bisection between the last size that
 * passed and the first that did not. A failed size leaves the QP in error, so
 * the connection is made again (resolve + connect) before the next probe; *c
 * is connected on return unless that failed (-errno, message in e).
 */
int rctl_mtu_sweep(struct rctl_conn *c, const struct rctl_conn_opts *o,
		   uint32_t max, struct rctl_sweep *r, struct rctl_err *e);

struct rctl_reach_opts {
	uint16_t port;
	int tos;			/* -1: rdma_cm default */
	unsigned int count;		/* round trips of each kind */
	uint32_t size;			/* message size */
	bool sweep;
	uint32_t sweep_max;		/* largest size the sweep tries */
	bool compare_tcp;
	double timeout_s;		/* each wait */
	const struct sockaddr *src;	/* NULL: the route decides */
	uint8_t version;		/* 0: ours (testing aid) */
	const uint8_t *token;		/* --token-file, RCTL_TOKEN_LEN bytes, or NULL */
	double half_open_s;		/* testing aid, rctl_conn_opts */
	uint32_t write_short;		/* testing aid, rctl_conn_opts */
	double gap_s;			/* testing aid: pause between round trips */
};

/* Which side's MTU makes the black hole (rctl_mtu_cause()). */
enum rctl_mtu_side {
	RCTL_MTU_UNKNOWN = 0,	/* the peer did not say its MTU */
	RCTL_MTU_PEER,		/* the peer's MTU is below the path MTU we send */
	RCTL_MTU_LOCAL,		/* our MTU is below the path MTU the peer sends */
	RCTL_MTU_PATH,		/* both hosts allow it: a link between them */
};

struct rctl_mtu_view {		/* one side's MTUs, bytes; 0 unknown */
	uint32_t active_mtu, netdev_mtu, path_mtu;
	char netdev[RCTL_IFNAME_LEN];
};

struct rctl_reach_result {
	char target[256];		/* as given: "node2", "node2:18521" */
	uint16_t port;			/* the serve port probed */
	bool evaluated;			/* false: could not evaluate, see err */
	struct rctl_err err;
	enum rctl_reach_class cls;
	struct rctl_err why;		/* message of a failure */
	struct rctl_conn c;		/* path, steps, peer's welcome */
	double traffic_ms;
	const char *clock_source;	/* what timed the round trips: rctl_fast_clock_init() */
	struct rctl_lat rtt[2];		/* SEND, WRITE */
	bool tcp_done;
	struct rctl_lat tcp;
	struct rctl_err tcp_err;	/* why the TCP round trips failed */
	bool swept;
	struct rctl_sweep sweep;
	enum rctl_mtu_side mtu_side;
	struct rctl_mtu_view local, peer;
	bool ctl_done;
	enum rctl_ctl_result ctl;
	char cdev[RCTL_NAME_LEN];
	uint32_t cport;
	struct rctl_counter *before, *after;
	uint32_t n_before, n_after;
	uint64_t loss_delta;		/* sum of the loss counters' deltas */
};

/* One target: never fails as a whole; r->evaluated says whether it ran. */
void rctl_reach_run(const struct rctl_reach_opts *o, const char *target,
		    struct rctl_reach_result *r);
/* n targets, at most "parallel" at once; each result as rctl_reach_run(). */
int rctl_reach_many(const struct rctl_reach_opts *o, char *const *targets,
		    unsigned int n, unsigned int parallel,
		    struct rctl_reach_result *r, struct rctl_err *e);
void rctl_reach_result_free(struct rctl_reach_result *r);
/* Delta of counter i of r->after against r->before; false when not in both. */
bool rctl_reach_counter_delta(const struct rctl_reach_result *r, uint32_t i,
			      uint64_t *before, uint64_t *delta);

/* ---- pure judgements (lib/reach_judge.c) ---- */

/*
 * Which side's MTU explains a sweep that passed up to largest_ok and stalled
 * at smallest_bad; writes one line naming it and both sides' MTUs into msg.
 */
enum rctl_mtu_side rctl_mtu_cause(const struct rctl_mtu_view *local,
				  const struct rctl_mtu_view *peer,
				  const char *peer_name, uint32_t largest_ok,
				  uint32_t smallest_bad, char *msg, size_t len);
const char *rctl_mtu_side_name(enum rctl_mtu_side s);

/*
 * A --targets file: one target per line, its first word (the rest, such as
 * the names of an /etc/hosts line, is ignored); '#' starts a comment; blank
 * lines are skipped. A target is HOST, HOST:PORT or [IPV6]:PORT, and HOST
 * may be a pdsh/clush host list ("node[01-48]"), expanded here. Appends to
 * *list (*n entries, strdup'ed). -EINVAL with the line number on a bad one.
 */
int rctl_reach_targets_parse(const char *text, const char *file, char ***list,
			     unsigned int *n, struct rctl_err *e);
/*
 * A target's host and port: "[fe80::1]:18520", "node2:18520", "10.0.0.2"
 * (*port -1: the default), "fe80::1" (several colons: an address alone).
 * -EINVAL on an empty host, a port outside 1..65535 or a lone bracket.
 */
int rctl_target_split(const char *target, char *host, size_t len, int *port);
/* One target from the command line (a host list expanded, as in a file). */
int rctl_reach_targets_add(char ***list, unsigned int *n, const char *target,
			   struct rctl_err *e);
int rctl_reach_targets_load(const char *path, char ***list, unsigned int *n,
			    struct rctl_err *e);
void rctl_reach_targets_free(char **list, unsigned int n);

/* Exit status of a run: fail (2) outranks could-not-evaluate (3), then ok. */
int rctl_reach_worst(int a, int b);

/* ---- the fleet matrix (lib/reach_matrix.c) ---- */

struct rctl_pair {
	unsigned int src, dst;		/* indexes into sources/targets */
	bool present;
	char verdict[16];		/* "ok", "fail", "unknown" */
	char finding[48];		/* "" when none */
	char message[256];
	uint64_t path_mtu, rtt_p50_ns;	/* 0 unknown */
};

/* A document, file or host whose run could not be read: left out, named. */
struct rctl_matrix_bad {
	char name[256];			/* the file, or the host pdsh named */
	char reason[320];
};

struct rctl_matrix {
	char **sources, **targets;	/* labels, in order of appearance */
	struct rctl_matrix_bad *bad;
	unsigned int nbad;
	unsigned int nsrc, ntgt;
	struct rctl_pair *pairs;	/* as read */
	unsigned int npairs;
	/* by rctl_matrix_finish(): */
	struct rctl_pair **grid;	/* nsrc × ntgt, row-major, NULL: not probed */
	struct rctl_pair **order;	/* probed pairs, failing first */
	unsigned int npresent, nfailed;	/* nfailed: verdict not "ok" */
	unsigned int *row_order, *row_rank;	/* sources, most failures first */
	unsigned int *col_order, *col_rank;	/* targets, likewise */
};

/*
 * Add the reach JSON documents in text (one, or several one after another,
 * each perhaps after pdsh's "host: " prefix), each a single target or
 * {"targets": [...]}, as the row of its source: the address its probes left
 * from, else its host name, else pdsh's prefix, else name. A document that
 * is not one of reach's, and a line of pdsh's own ("pdsh@admin: node4: ssh
 * exited ..."), is noted in m->bad and skipped to the next line that starts
 * a document; a text with no document at all is noted too. Errors: -ENOMEM.
 */
int rctl_matrix_add_doc(struct rctl_matrix *m, const char *json,
			const char *name, struct rctl_err *e);
/* Note an input that could not be read at all (cannot open it); -ENOMEM. */
int rctl_matrix_add_bad(struct rctl_matrix *m, const char *name, const char *reason);
/* Build the grid and sort: failing pairs first, rows and columns by failures. */
int rctl_matrix_finish(struct rctl_matrix *m);
void rctl_matrix_free(struct rctl_matrix *m);
const struct rctl_pair *rctl_matrix_at(const struct rctl_matrix *m,
				       unsigned int src, unsigned int dst);

#endif
