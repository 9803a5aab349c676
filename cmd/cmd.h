/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command tables of the rocectl binary.
 *
 * Adding a command:
 *  1. cmd/<group>.c: a static do_<group>_<verb>() and its options table, and a
 *     const struct rctl_cmd exported as cmd_<group> (declared below);
 *  2. an entry in the top-level table in cmd/tree.c;
 *  3. man/rocectl-<group>.8 whose SYNOPSIS carries the usage line of --help and
 *     whose OPTIONS name every option (tests/cli/sync.bats checks both);
 *  4. bats tests: usage errors, exit codes, -j output.
 */
#ifndef ROCECTL_CMD_H
#define ROCECTL_CMD_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/opt.h"

enum rctl_cmd_flags {
	CMD_HIDDEN = 1 << 0,	/* not in help, completion or man sync */
	CMD_CHECK = 1 << 1,	/* exit status is the check verdict */
	CMD_ROOT = 1 << 2,	/* needs root (dispatcher refuses otherwise) */
};

struct rctl_ctx {
	bool json;
	bool pretty;
	bool verbose;
	bool quiet;
	bool nagios;			/* -o nagios: a plugin's status line and exits */
	bool status_line;		/* the Nagios status line was printed */
	const char *path;		/* "check pfc", for messages */
	const char *input;		/* --input FILE, of a .host_input command */
	const struct rctl_opt_list *inputs;	/* every --input of a .host_inputs one */
	const struct rctl_cmd *cmd;	/* the command being run */
};

struct rctl_cmd {
	const char *name;			/* exact match only */
	const char *summary;			/* one line */
	const char *args;			/* positional synopsis */
	int min_args, max_args;			/* max_args -1 = unbounded */
	enum rctl_arg_kind arg_kind;		/* completion of positionals */
	const struct rctl_opt *opts;
	const struct rctl_cmd *const *sub;	/* NULL-terminated, or NULL */
	int (*fn)(struct rctl_ctx *ctx, int argc, char **argv);
	unsigned int flags;
	unsigned int host;			/* the collectors it runs: RCTL_COLLECT_* */
	bool host_input;			/* a snapshot may stand in: gets -i/--input */
	const char *input_help;			/* help of its --input, when not the default */
	bool host_inputs;			/* --input repeatable: FILE, DIR or PATTERN */
};

/*
 * What a command reads of the host, declared in its table entry (git's
 * RUN_SETUP): .host, the collectors it runs live (RCTL_COLLECT_* of
 * rocectl/collect.h), and .host_input when a snapshot may stand in for the
 * host: cmd/tree.c then gives the command -i/--input FILE (help, parsing,
 * metadata and completion; after its --dev, else last; its table never
 * declares it) into ctx->input. cmd_load_host() does it, once, for every such
 * command.
 */

/* t (seconds since the epoch) as RFC 3339 UTC into buf; NULL when t is 0 (unknown). */
const char *cmd_rfc3339(int64_t t, char *buf, size_t len);

/*
 * Read the host the way ctx->cmd declares (plus the collectors in "more"), or
 * load ctx->input when the command was given --input; stamps the document
 * with the host's name (and a snapshot's time: the document describes then). 0, or -errno with e filled (the caller reports it:
 * devices prints its empty list first).
 */
struct rctl_host;
int cmd_load_host(struct rctl_ctx *ctx, unsigned int more, struct rctl_host *h,
		  struct rctl_err *e);

/*
 * --lldp-wait SECS, the same in every command that reads the switch's LLDP
 * (devices, check, doctor, collect), and the read itself: the neighbours of
 * a live host from lldpd and, when wait_s > 0, from one captured frame per
 * netdev (rocectl/lldp.h); nothing for a snapshot (--input). 0, or the exit
 * status of the error reported, with h freed.
 */
#define CMD_LLDP_WAIT_OPT(var)						\
	{ .name = "lldp-wait", .type = OPT_SECS, .arg = "SECS", .dst = &(var), \
	  .max = 300, .help = "without lldpd: listen up to SECS for the switch's LLDP frame (needs CAP_NET_RAW)" }
int cmd_load_lldp(struct rctl_ctx *ctx, struct rctl_host *h, double wait_s);

/*
 * A capture for the wire area (check, doctor, collect) and rocectl capture:
 * live on a netdev for some seconds, or a pcap/pcapng file (rocectl/capture.h).
 */
struct cmd_wire {
	const char *iface;
	const char *file;
	double seconds;
};

#define CMD_WIRE_SECONDS 5.0
#define CMD_WIRE_OPTS(w)						\
	{ .name = "capture", .type = OPT_STR, .arg = "IFACE", .dst = &(w).iface, \
	  .kind = ARG_NETDEV,						\
	  .help = "capture RoCE v2 on IFACE for the wire area (needs CAP_NET_RAW)" }, \
	{ .name = "read", .short_name = 'r', .type = OPT_STR, .arg = "FILE", \
	  .dst = &(w).file, .kind = ARG_FILE,				\
	  .help = "the wire area from a pcap or pcapng file (tcpdump -w, tshark, ibdump)" }, \
	{ .name = "seconds", .type = OPT_SECS, .arg = "SECS", .dst = &(w).seconds, \
	  .max = 3600, .help = "how long --capture listens (default 5)" }
/*
 * The capture the options ask for into h->wire (h, read before, tells a
 * netdev whose RoCE bypasses the kernel): 0 when none is asked or it was
 * taken, else the exit status of the error reported (64 usage, 3 could not:
 * no CAP_NET_RAW, no such netdev, not a capture file). "count" and
 * "buffer_kib" 0: no limit, libpcap's default buffer.
 */
struct rctl_host;
int cmd_wire_capture(struct rctl_ctx *ctx, const struct cmd_wire *w, uint64_t count,
		     uint32_t buffer_kib, struct rctl_host *h);

/* Report an error: stderr "rocectl: <msg>", and "error" in the JSON document. */
int cmd_error(struct rctl_ctx *ctx, int status, const struct rctl_err *e);
int cmd_errorf(struct rctl_ctx *ctx, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "rocectl: warning: <msg>" on stderr unless -q. */
void cmd_warn(struct rctl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The last error reported, for the Nagios status line of a run that failed early. */
extern char cmd_last_err[600];

/* A whole input file as text ("-": standard input), at most 64 MiB; free() it. */
int cmd_read_text(const char *path, char **text, struct rctl_err *e);
/*
 * A compare value (lib/compare.c's row strings) under its column's key, in the
 * type that key has in every command (docs/json.md); fmt for text, NULL in a
 * table cell. compare and check's fleet outliers print through it.
 */
void cmd_cmp_value(const char *fmt, int col, const char *v);
/*
 * A latency distribution as JSON (CONTRIBUTING.md): "key": {"min", "mean",
 * "stddev", "max", "percentiles": {"50": N, ...}}, integer nanoseconds.
 */
struct rctl_hist;
void cmd_latency_json(const char *key, const struct rctl_hist *h, const double *pcts, int n);
/* --histogram of bench: text bars of the log buckets, JSON "histogram" [{lo_ns, hi_ns, count}]. */
void cmd_histogram(const struct rctl_hist *h);

/*
 * -d/--dev (perftest's --ib-dev too): the ports a command looks at. Every
 * command that takes a device takes it so and as its one positional
 * argument; cmd_dev_arg() says which was given (both: a usage error).
 */
#define CMD_DEV_OPT(var)						\
	{ .name = "dev", .aliases = "ib-dev", .short_name = 'd', .type = OPT_STR, \
	  .arg = "DEV", .dst = &(var), .kind = ARG_DEV,			\
	  .help = "only this RDMA device, DEV/PORT or netdev" }
int cmd_dev_arg(struct rctl_ctx *ctx, const char *opt, int argc, char **argv,
		const char **dev);

/* A --dev that matches no port of the host: the error (status 3), else 0. */
int cmd_check_filter(struct rctl_ctx *ctx, const struct rctl_host *h, const char *filter);

/* The structured target of a finding (device, port, netdev) in JSON. */
struct rctl_finding;
void cmd_finding_target(const struct rctl_finding *f);
/* One finding: the same JSON everywhere; text as a block or one_line (cmd/common.c). */
void cmd_print_finding(const struct rctl_finding *f, bool one_line);

/*
 * -o prometheus|openmetrics (cmd/common.c): add rocectl_up (1 when up),
 * rocectl_last_success_timestamp_seconds and rocectl_build_info to pr, end it
 * and write it to file (atomically) or stdout; frees pr. 0, or 3 reported.
 */
struct rctl_prom;
int cmd_prom_finish(struct rctl_ctx *ctx, struct rctl_prom *pr, const char *file, bool up);
/*
 * A run in that format with -O that failed with status 3 before its metrics:
 * FILE still gets rocectl_up 0 (and the last success of the FILE it
 * replaces). Returns status.
 */
int cmd_prom_failed(struct rctl_ctx *ctx, const char *format, const char *file, int status);

/* Command groups, one file each. */
extern const struct rctl_cmd cmd_flows;
extern const struct rctl_cmd cmd_devices;
extern const struct rctl_cmd cmd_bench;
extern const struct rctl_cmd cmd_check, cmd_doctor, cmd_compare;
extern const struct rctl_cmd cmd_counters;
extern const struct rctl_cmd cmd_tune;
extern const struct rctl_cmd cmd_collect;
extern const struct rctl_cmd cmd_capture;
extern const struct rctl_cmd cmd_reach, cmd_serve, cmd_bench_rdma, cmd_bench_nvmf;

/*
 * Where a probe sends from, for reach and bench rdma, spelled alike in both:
 * -d/--dev DEV (perftest's --ib-dev) with -x/--gid-index N, or --src ADDR.
 * Neither: the kernel's route to the target chooses.
 */
struct cmd_src {
	const char *dev, *src;
	int gid_index;
	bool gid_given;
};

#define CMD_SRC_OPTS(s)							\
	{ .name = "dev", .short_name = 'd', .type = OPT_STR, .arg = "DEV", \
	  .dst = &(s).dev, .kind = ARG_DEV,				\
	  .help = "send from this RDMA device (its RoCE v2 address)" },	\
	{ .name = "ib-dev", .type = OPT_STR, .arg = "DEV", .dst = &(s).dev, \
	  .kind = ARG_DEV, .help = "the same as --dev (perftest's name)" }, \
	{ .name = "gid-index", .short_name = 'x', .type = OPT_INT, .arg = "N", \
	  .dst = &(s).gid_index, .min = 0, .max = 65535,		\
	  .given = &(s).gid_given,					\
	  .help = "with --dev: send from the IP address of this GID" },	\
	{ .name = "src", .type = OPT_STR, .arg = "ADDR", .dst = &(s).src, \
	  .help = "send from this local IP address" }

/* Their usage errors (status 64), else 0 (cmd/common.c). */
int cmd_src_check(struct rctl_ctx *ctx, const struct cmd_src *s);
/*
 * The source address they name into ss and *sa, or *sa NULL when none was
 * given; a failure is reported and its status returned, else 0.
 */
struct sockaddr;
struct sockaddr_storage;
int cmd_src_addr(struct rctl_ctx *ctx, const struct cmd_src *s,
		 struct sockaddr_storage *ss, const struct sockaddr **sa);

/* A round-trip distribution: JSON "rtt_ns" {...}, text "  rtt_us min ..." (cmd/common.c). */
struct rctl_lat;
void cmd_print_rtt_ns(const struct rctl_lat *l);
/*
 * The kernel's NVMe-oF controllers and their subsystems' paths (h->nvme):
 * two tables, "nvme_controllers" and "nvme_paths", "indent" spaces in from
 * the left in text; nothing when none.
 */
void cmd_nvme_print(const struct rctl_host *h, int indent);

#endif
