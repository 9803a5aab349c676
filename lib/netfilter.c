// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netfilter rules that drop or reject RoCE's ports (docs/roce-facts.md): UDP 4791 (RoCE v2)
 * and the out-of-band TCP ports 4420 (NVMe/TCP) and 18515 (perftest). The
 * ruleset comes from "nft -j list ruleset", run without a shell and killed
 * after a timeout; it only reads. Hardware RoCE bypasses netfilter, Soft-RoCE
 * (rxe) does not: the rules judge that, this file only finds the rules.
 *
 * nft is run only when the kernel may hold a rule. Without nf_tables (no
 * /sys/module/nf_tables, not in modules.builtin) there is no ruleset, and
 * asking would load the module: nft's NETLINK_NETFILTER socket and its
 * request autoload nfnetlink and nf_tables (kernel netlink_create(),
 * nfnetlink_rcv_msg()). With nf_tables, one NFT_MSG_GETRULE dump says
 * whether any rule exists; an error there (EPERM without CAP_NET_ADMIN)
 * leaves the answer to nft, as before.
 *
 * Only rules that name the port are found: a chain policy of drop or a
 * catch-all reject is not evaluated, nor named sets ("@ports"), nor rules
 * reached by jump from another chain.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>

#include <cjson/cJSON.h>

#include "rocectl/clock.h"
#include "rocectl/collect.h"
#include "rocectl/json.h"
#include "rocectl/nl.h"
#include "rocectl/sysfs.h"

#define NFT_TIMEOUT_MS 5000
#define NFT_OUT_MAX (32u << 20)

extern char **environ;

static const struct {
	const char *proto;
	uint32_t port;
} watched[] = {
	{ "udp", 4791 },	/* RoCE v2 */
	{ "tcp", 4420 },	/* NVMe/TCP */
	{ "tcp", 18515 },	/* perftest/pingpong out-of-band exchange */
};
#define N_WATCHED (sizeof(watched) / sizeof(watched[0]))

/* ---- the ruleset JSON ------------------------------------------------- */

/* Whether "right" of a match (number, set, range) holds port "p". */
static bool holds(const cJSON *r, uint32_t p)
{
	const cJSON *it, *set, *range;

	if (cJSON_IsNumber(r))
		return r->valuedouble == p;
	range = cJSON_IsObject(r) ? cJSON_GetObjectItemCaseSensitive(r, "range") : NULL;
	if (cJSON_IsArray(range) && cJSON_GetArraySize(range) == 2) {
		const cJSON *lo = cJSON_GetArrayItem(range, 0), *hi = cJSON_GetArrayItem(range, 1);

		return cJSON_IsNumber(lo) && cJSON_IsNumber(hi) &&
		       lo->valuedouble <= p && p <= hi->valuedouble;
	}
	set = cJSON_IsObject(r) ? cJSON_GetObjectItemCaseSensitive(r, "set") : NULL;
	if (cJSON_IsArray(set))
		cJSON_ArrayForEach(it, set)
			if (holds(it, p))
				return true;
	return false;	/* "@named_set" and anything else: not evaluated */
}

/* What one rule's expressions say, for the watched ports. */
struct nf_scan {
	char l4[8];			/* meta l4proto / ip protocol, "" any */
	int port[N_WATCHED];		/* 1 matched, 0 excluded, -1 no dport match */
	char iif[RCTL_IFNAME_LEN], oif[RCTL_IFNAME_LEN];
	const char *verdict;		/* "drop", "reject", NULL none */
};

static const char *str_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* "meta l4proto udp", "ip protocol tcp", "ip6 nexthdr udp". */
static void scan_l4(struct nf_scan *s, const cJSON *right)
{
	if (cJSON_IsString(right))
		snprintf(s->l4, sizeof(s->l4), "%.7s", right->valuestring);
	else if (cJSON_IsNumber(right))
		snprintf(s->l4, sizeof(s->l4), "%s", right->valuedouble == 17 ? "udp" :
			 right->valuedouble == 6 ? "tcp" : "other");
}

static void scan_dport(struct nf_scan *s, const char *proto, bool neg,
		       const cJSON *right)
{
	size_t k;
	bool in;

	for (k = 0; k < N_WATCHED; k++) {
		if (strcmp(proto, "th") && strcmp(proto, watched[k].proto))
			continue;
		in = holds(right, watched[k].port);
		if (s->port[k] != 0)	/* several matches in one rule: all must hold */
			s->port[k] = in != neg;
	}
}

static void scan_match(struct nf_scan *s, const cJSON *m)
{
	const cJSON *left = cJSON_GetObjectItemCaseSensitive(m, "left");
	const cJSON *right = cJSON_GetObjectItemCaseSensitive(m, "right");
	const cJSON *pl = cJSON_GetObjectItemCaseSensitive(left, "payload");
	const cJSON *meta = cJSON_GetObjectItemCaseSensitive(left, "meta");
	const char *op = str_of(m, "op"), *key, *proto, *field;
	bool neg = op && !strcmp(op, "!=");

	if (meta) {
		key = str_of(meta, "key");
		if (!key)
			return;
		/* "iifname != x" is kept as "!x". */
		if (!strcmp(key, "iifname") && cJSON_IsString(right))
			snprintf(s->iif, sizeof(s->iif), "%s%.30s", neg ? "!" : "",
				 right->valuestring);
		else if (!strcmp(key, "oifname") && cJSON_IsString(right))
			snprintf(s->oif, sizeof(s->oif), "%s%.30s", neg ? "!" : "",
				 right->valuestring);
		else if (!strcmp(key, "l4proto") && !neg)
			scan_l4(s, right);
		return;
	}
	proto = str_of(pl, "protocol");
	field = str_of(pl, "field");
	if (!proto || !field)
		return;
	if (!neg && ((!strcmp(proto, "ip") && !strcmp(field, "protocol")) ||
		     (!strcmp(proto, "ip6") && !strcmp(field, "nexthdr"))))
		scan_l4(s, right);
	else if (!strcmp(field, "dport"))
		scan_dport(s, proto, neg, right);
}

static int add_rule(struct rctl_netfilter *nf, const cJSON *rule,
		    const struct nf_scan *s, size_t k)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(rule, "handle");
	struct rctl_nf_rule *r = rctl_arr_push(&nf->rules, &nf->n_rules, sizeof(*r));
	const char *v;

	if (!r)
		return -ENOMEM;
	v = str_of(rule, "family");
	snprintf(r->family, sizeof(r->family), "%.7s", v ? v : "");
	v = str_of(rule, "table");
	snprintf(r->table, sizeof(r->table), "%.63s", v ? v : "");
	v = str_of(rule, "chain");
	snprintf(r->chain, sizeof(r->chain), "%.63s", v ? v : "");
	/* nft handles are u64: anything else (1e44, found by fuzzing) is unknown, 0. */
	r->handle = cJSON_IsNumber(h) && h->valuedouble >= 0 &&
		    h->valuedouble < 18446744073709551616.0 ? (uint64_t)h->valuedouble : 0;
	snprintf(r->proto, sizeof(r->proto), "%s", watched[k].proto);
	r->dport = watched[k].port;
	snprintf(r->verdict, sizeof(r->verdict), "%s", s->verdict);
	snprintf(r->iifname, sizeof(r->iifname), "%s", s->iif);
	snprintf(r->oifname, sizeof(r->oifname), "%s", s->oif);
	return 0;
}

static int scan_rule(struct rctl_netfilter *nf, const cJSON *rule)
{
	const cJSON *exprs = cJSON_GetObjectItemCaseSensitive(rule, "expr"), *x;
	struct nf_scan s = { .verdict = NULL };
	size_t k;
	int ret;

	for (k = 0; k < N_WATCHED; k++)
		s.port[k] = -1;
	cJSON_ArrayForEach(x, exprs) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(x, "match");

		if (cJSON_IsObject(m))
			scan_match(&s, m);
		else if (cJSON_GetObjectItemCaseSensitive(x, "drop"))
			s.verdict = "drop";
		else if (cJSON_GetObjectItemCaseSensitive(x, "reject"))
			s.verdict = "reject";
	}
	if (!s.verdict)
		return 0;
	for (k = 0; k < N_WATCHED; k++) {
		if (s.port[k] != 1 || (s.l4[0] && strcmp(s.l4, watched[k].proto)))
			continue;
		ret = add_rule(nf, rule, &s, k);
		if (ret)
			return ret;
	}
	return 0;
}

int rctl_nft_parse(const char *json, struct rctl_netfilter *nf, struct rctl_err *e)
{
	const cJSON *list, *it, *rule;
	cJSON *doc;
	int ret;

	ret = rctl_json_read(json, strlen(json), "the nftables ruleset", NULL, &doc, e);
	if (ret)
		return ret;
	list = cJSON_GetObjectItemCaseSensitive(doc, "nftables");
	if (!cJSON_IsArray(list)) {
		cJSON_Delete(doc);
		return rctl_err_plain(e, EINVAL, "cannot read the nftables ruleset: not nft JSON");
	}
	cJSON_ArrayForEach(it, list) {
		rule = cJSON_GetObjectItemCaseSensitive(it, "rule");
		if (!cJSON_IsObject(rule))
			continue;
		nf->n_rules_read++;
		ret = scan_rule(nf, rule);
		if (ret) {
			rctl_err_strerror(e, -ret, "cannot read the nftables ruleset");
			break;
		}
	}
	cJSON_Delete(doc);
	nf->st.ok = !ret;
	return ret;
}

/* ---- running nft ------------------------------------------------------ */

static const char *nft_path(void)
{
	static const char *const dirs[] = {
		"/usr/sbin/nft", "/sbin/nft", "/usr/bin/nft", "/bin/nft", "/usr/local/sbin/nft",
	};
	const char *env = getenv("ROCECTL_NFT");
	size_t i;

	if (env && *env)
		return env;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!access(dirs[i], X_OK))
			return dirs[i];
	return NULL;
}

static int64_t now_ms(void)
{
	return (int64_t)(rctl_clock_ns() / 1000000);
}

struct nft_run {
	char *out;			/* stdout, NUL-terminated */
	size_t len, cap;
	char err[RCTL_REASON_LEN];	/* start of stderr */
	size_t elen;
};

/* Read what is there from one pipe; 1 at EOF, 0 more to come, -errno. */
static int drain(int fd, struct nft_run *r, bool is_out)
{
	char tmp[4096], *p;
	ssize_t n = read(fd, tmp, sizeof(tmp));
	size_t room;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (!n)
		return 1;
	if (!is_out) {
		room = sizeof(r->err) - 1 - r->elen;
		memcpy(r->err + r->elen, tmp, (size_t)n < room ? (size_t)n : room);
		r->elen += (size_t)n < room ? (size_t)n : room;
		return 0;
	}
	if (r->len + n + 1 > r->cap) {
		if (r->len + n + 1 > NFT_OUT_MAX)
			return -EFBIG;
		r->cap = (r->len + n + 1) * 2;
		p = realloc(r->out, r->cap);
		if (!p)
			return -ENOMEM;
		r->out = p;
	}
	memcpy(r->out + r->len, tmp, n);
	r->len += n;
	r->out[r->len] = '\0';
	return 0;
}

/* Both pipes to EOF, then the exit status, all before the deadline. */
static int collect_child(pid_t pid, int fds[2], struct nft_run *r, int *status)
{
	struct pollfd pfd[2] = { { fds[0], POLLIN, 0 }, { fds[1], POLLIN, 0 } };
	int64_t deadline = now_ms() + NFT_TIMEOUT_MS, left;
	int open = 2, ret = 0, k;

	while (open && !ret) {
		left = deadline - now_ms();
		if (left <= 0) {
			ret = -ETIMEDOUT;
			break;
		}
		if (poll(pfd, 2, (int)left) < 0 && errno != EINTR)
			ret = -errno;
		for (k = 0; k < 2 && !ret; k++) {
			if (pfd[k].fd < 0 || !pfd[k].revents)
				continue;
			ret = drain(pfd[k].fd, r, k == 0);
			if (ret == 1) {
				pfd[k].fd = -1;
				open--;
				ret = 0;
			}
		}
	}
	while (!ret && waitpid(pid, status, WNOHANG) == 0) {
		if (now_ms() >= deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000000 }, NULL);
	}
	if (ret) {
		kill(-pid, SIGKILL);
		waitpid(pid, status, 0);
	}
	return ret;
}

static int spawn_nft(const char *path, struct nft_run *r, int *status)
{
	char *const argv[] = { "nft", "-j", "list", "ruleset", NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int out[2], err[2], fds[2], ret;
	pid_t pid;

	if (pipe2(out, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		ret = -errno;
		close(out[0]);
		close(out[1]);
		return ret;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	/* Its own process group, so that a kill at the timeout takes its children too. */
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&at, 0);
	ret = -posix_spawn(&pid, path, &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	close(err[1]);
	fds[0] = out[0];
	fds[1] = err[0];
	if (!ret)
		ret = collect_child(pid, fds, r, status);
	close(out[0]);
	close(err[0]);
	return ret;
}

/* The first line of nft's complaint, or a reason of our own. */
static void fail_reason(struct rctl_netfilter *nf, struct nft_run *r, int status)
{
	char *nl;

	r->err[r->elen] = '\0';
	nl = strchr(r->err, '\n');
	if (nl)
		*nl = '\0';
	if (geteuid())
		rctl_part_fail(&nf->st, EPERM, "not root: 'nft list ruleset' needs CAP_NET_ADMIN");
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		rctl_part_fail(&nf->st, ENOENT, "nft could not be run");
	else if (r->err[0])
		rctl_part_fail(&nf->st, EIO, r->err);
	else
		rctl_part_fail(&nf->st, EIO, "'nft list ruleset' failed");
}

/* ---- whether nft has anything to say ---------------------------------- */

bool rctl_nft_builtin(const char *line)
{
	return rctl_line_ends_with(line, "/nf_tables.ko");
}

/*
 * 1 when nf_tables is in the kernel (loaded, or built in), 0 when it is not,
 * -errno when modules.builtin, which says the last, cannot be read.
 */
static int nf_tables_present(void)
{
	char path[PATH_MAX];
	struct utsname u;

	snprintf(path, sizeof(path), "%s/module/nf_tables", rctl_sysfs());
	if (!access(path, F_OK))
		return 1;
	if (uname(&u))
		return -errno;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.builtin", u.release);
	return rctl_file_any_line(path, rctl_nft_builtin);
}

static int count_rule(const struct nlmsghdr *nlh, void *data)
{
	if ((nlh->nlmsg_type & 0xff) == NFT_MSG_NEWRULE)
		(*(uint32_t *)data)++;
	return MNL_CB_OK;
}

/* The number of rules in every table of every family, or -errno. */
static int64_t nft_rule_count(void)
{
	struct rctl_err e = { 0 };
	struct nfgenmsg *g;
	struct nlmsghdr *nlh;
	struct rctl_nl nl;
	uint32_t n = 0;
	int ret;

	ret = rctl_nl_open(&nl, NETLINK_NETFILTER, &e);
	if (ret)
		return ret;
	nlh = rctl_nl_msg(&nl, (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_GETRULE, NLM_F_DUMP);
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->nfgen_family = NFPROTO_UNSPEC;
	g->version = NFNETLINK_V0;
	g->res_id = 0;
	ret = rctl_nl_talk(&nl, nlh, count_rule, &n);
	rctl_nl_close(&nl);
	return ret ? ret : (int64_t)n;
}

/*
 * Whether the ruleset is known to be empty without nft: no nf_tables in the
 * kernel, or one without a rule. ROCECTL_NFT (tests) always runs nft.
 */
static bool nft_known_empty(void)
{
	const char *env = getenv("ROCECTL_NFT");
	int present;

	if (env && *env)
		return false;
	present = nf_tables_present();
	if (present == 0)
		return true;
	/* In the kernel: nfnetlink, which it needs, is too, so the dump loads nothing. */
	return present == 1 && nft_rule_count() == 0;
}

int rctl_netfilter_collect(struct rctl_host *h, struct rctl_err *e)
{
	struct rctl_netfilter *nf = &h->netfilter;
	struct nft_run r = { 0 };
	const char *path = nft_path();
	struct rctl_err pe = { 0 };
	int status = 0, ret;

	if (nft_known_empty()) {
		nf->st.ok = true;	/* not one rule, so none that drops RoCE */
	} else if (!path) {
		rctl_part_fail(&nf->st, ENOENT, "nft not installed (nftables)");
	} else if ((ret = spawn_nft(path, &r, &status))) {
		rctl_part_fail(&nf->st, -ret, ret == -ETIMEDOUT ?
			       "'nft list ruleset' did not answer within 5 s" : NULL);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) || !r.out) {
		fail_reason(nf, &r, status);
	} else if ((ret = rctl_nft_parse(r.out, nf, &pe))) {
		rctl_part_fail(&nf->st, -ret, pe.msg);
	}
	free(r.out);
	if (!nf->st.ok)
		rctl_host_unread(h, nf->st.err, nf->st.reason, "netfilter ruleset (nft)");
	(void)e;
	return 0;
}
