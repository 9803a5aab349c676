// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ethtool driver statistics of a netdev through the SIOCETHTOOL ioctl
 * (GSSET_INFO for the count, GSTRINGS for the names, GSTATS for the values,
 * each reply against a guard page: see ethtool_read()):
 * the ethtool netlink STATS_GET covers only the standard groups, not driver
 * names such as mlx5's rx_prio3_pause. Read-only; needs no privilege.
 * Pause frame statistics, which only ethtool netlink has, come from
 * ETHTOOL_MSG_PAUSE_GET with ETHTOOL_FLAG_STATS (anchor: ethtool netlink/pause.c).
 * Also the SIOCETHTOOL GET ioctls of the QoS collection: 802.3x global pause
 * (ETHTOOL_GPAUSEPARAM) and the driver name, version and bus address
 * (ETHTOOL_GDRVINFO); and the one write of this family, ETHTOOL_SPAUSEPARAM,
 * for tune only (rocectl/write.h).
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sockios.h>

#include "rocectl/collect.h"
#include "rocectl/counters.h"
#include "rocectl/write.h"

static int ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

/* A PCI bus_info looks like "0000:3b:00.0"; veth and rxe report none. */
static bool is_pci(const char *s)
{
	unsigned int dom, bus, dev, fn;
	char end;

	return sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &end) == 4;
}

/*
 * ETHTOOL_GDRVINFO: the driver name (mlx5_core, bnxt_en, ice, veth), which
 * keys the catalogue, when nothing named it yet; with "full" (inventory) also
 * its version and the PCI address.
 */
static void ethtool_drvinfo(int fd, struct rctl_netdev *nd, bool full)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };

	if ((!full && nd->driver[0]) || ethtool_ioctl(fd, nd->name, &di))
		return;
	if (!nd->driver[0])
		snprintf(nd->driver, sizeof(nd->driver), "%.*s",
			 (int)sizeof(nd->driver) - 1, di.driver);
	if (!full)
		return;
	snprintf(nd->driver_version, sizeof(nd->driver_version), "%.*s",
		 (int)sizeof(nd->driver_version) - 1, di.version);
	if (is_pci(di.bus_info))
		snprintf(nd->pci, sizeof(nd->pci), "%.*s",
			 (int)sizeof(nd->pci) - 1, di.bus_info);
}

static int ethtool_count(int fd, const char *ifname, uint32_t *n)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;	/* data[] of the one set asked for */
	} ss = { .hdr = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS } };
	int ret = ethtool_ioctl(fd, ifname, &ss);

	if (ret)
		return ret;
	*n = ss.hdr.sset_mask & (1ULL << ETH_SS_STATS) ? ss.len : 0;
	return 0;
}

/*
 * ETHTOOL_GSTRINGS and ETHTOOL_GSTATS ignore the count we pass: the kernel
 * asks the driver again and copies out as many entries as it has *now*
 * (net/ethtool/ioctl.c, ethtool_get_strings()/ethtool_get_stats()), and
 * mlx5 grows its set when PFC is turned on between our count and the read.
 * So each reply buffer ends exactly at an inaccessible guard page: a
 * larger reply makes copy_to_user() fail with EFAULT instead of writing
 * past the buffer, and we count again and retry.
 */
struct guarded {
	void *map;
	size_t map_len;
	void *buf;	/* the last "len" bytes before the guard page */
};

static int guarded_alloc(struct guarded *g, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t data = (len + page - 1) / page * page;

	g->map_len = data + page;
	g->map = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (g->map == MAP_FAILED) {
		g->map = NULL;
		return -ENOMEM;
	}
	if (mprotect((char *)g->map + data, page, PROT_NONE)) {
		munmap(g->map, g->map_len);
		g->map = NULL;
		return -ENOMEM;
	}
	g->buf = (char *)g->map + data - len;
	return 0;
}

static void guarded_free(struct guarded *g)
{
	if (g->map)
		munmap(g->map, g->map_len);
	g->map = NULL;
}

/* One read of names and values; -EAGAIN when the set changed under us. */
static int ethtool_read(int fd, struct rctl_netdev *nd, uint32_t n)
{
	struct guarded gg = { 0 }, gs = { 0 };
	struct ethtool_gstrings *str;
	struct ethtool_stats *st;
	uint32_t i;
	int ret;

	ret = guarded_alloc(&gg, sizeof(*str) + (size_t)n * ETH_GSTRING_LEN);
	if (!ret)
		ret = guarded_alloc(&gs, sizeof(*st) + (size_t)n * sizeof(uint64_t));
	if (ret)
		goto out;
	str = gg.buf;
	st = gs.buf;
	*str = (struct ethtool_gstrings){ .cmd = ETHTOOL_GSTRINGS, .string_set = ETH_SS_STATS,
					  .len = n };
	*st = (struct ethtool_stats){ .cmd = ETHTOOL_GSTATS, .n_stats = n };
	ret = ethtool_ioctl(fd, nd->name, str);
	if (!ret)
		ret = ethtool_ioctl(fd, nd->name, st);
	if (ret == -EFAULT || (!ret && (str->len != n || st->n_stats != n)))
		ret = -EAGAIN;
	if (ret)
		goto out;
	for (i = 0; i < n; i++) {
		struct rctl_counter *c = &nd->stats[nd->n_stats++];

		snprintf(c->name, sizeof(c->name), "%.*s", ETH_GSTRING_LEN,
			 (const char *)str->data + (size_t)i * ETH_GSTRING_LEN);
		c->value = st->data[i];
	}
out:
	guarded_free(&gg);
	guarded_free(&gs);
	return ret;
}

/* Count, read, and count again while the driver's set keeps changing. */
static int ethtool_fill(int fd, struct rctl_netdev *nd, uint32_t n)
{
	int ret = -EAGAIN, tries;

	for (tries = 0; tries < 4 && ret == -EAGAIN; tries++) {
		if (tries && (ret = ethtool_count(fd, nd->name, &n)))
			break;
		free(nd->stats);
		nd->n_stats = 0;
		nd->stats = calloc(n ? n : 1, sizeof(*nd->stats));
		if (!nd->stats)
			return -ENOMEM;
		ret = n ? ethtool_read(fd, nd, n) : 0;
	}
	return ret;
}

int rctl_ethtool_stats(struct rctl_netdev *nd)
{
	uint32_t n = 0;
	int fd, ret;

	free(nd->stats);
	nd->stats = NULL;
	nd->n_stats = 0;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		nd->stats_err = errno;
		return -errno;
	}
	ethtool_drvinfo(fd, nd, false);
	ret = ethtool_count(fd, nd->name, &n);
	if (!ret && n)
		ret = ethtool_fill(fd, nd, n);
	close(fd);
	if (ret) {
		free(nd->stats);
		nd->stats = NULL;
		nd->n_stats = 0;
	}
	nd->stats_err = -ret;
	return ret;
}

/* ---- global pause and driver info (SIOCETHTOOL) ---------------------- */

static void pause_one(struct rctl_host *h, int fd, struct rctl_netdev *nd)
{
	struct ethtool_pauseparam pp = { .cmd = ETHTOOL_GPAUSEPARAM };
	int ret = ethtool_ioctl(fd, nd->name, &pp);

	if (ret) {
		rctl_part_fail(&nd->pause.st, ret, ret == -EOPNOTSUPP ?
			       "not supported by the driver" : NULL);
		rctl_host_unread(h, ret, nd->pause.st.reason,
				 "global pause of '%s'", nd->name);
		return;
	}
	nd->pause.autoneg = pp.autoneg;
	nd->pause.rx = pp.rx_pause;
	nd->pause.tx = pp.tx_pause;
	nd->pause.st.ok = true;
}

int rctl_pause_collect(struct rctl_host *h, struct rctl_err *e)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	uint32_t i;

	if (fd < 0) {
		for (i = 0; i < h->n_netdevs; i++)
			rctl_part_fail(&h->netdevs[i].pause.st, errno, NULL);
		rctl_host_unread(h, errno, strerror(errno), "ethtool (socket)");
		return 0;
	}
	for (i = 0; i < h->n_netdevs; i++) {
		ethtool_drvinfo(fd, &h->netdevs[i], true);
		pause_one(h, fd, &h->netdevs[i]);
	}
	close(fd);
	(void)e;
	return 0;
}

/* ---- pause statistics over ethtool netlink ---------------------------- */

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;
	uint16_t *id = data;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_get_payload_len(a) == sizeof(uint16_t))
			*id = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

/* The genetlink id of "ethtool" (CTRL_CMD_GETFAMILY); -ENOENT without it. */
static int ethtool_family(struct rctl_nl *nl, uint16_t *id)
{
	struct nlmsghdr *nlh = rctl_nl_msg(nl, GENL_ID_CTRL, NLM_F_ACK);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	int ret;

	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	*id = 0;
	ret = rctl_nl_talk(nl, nlh, family_cb, id);
	return ret ? ret : *id ? 0 : -ENOENT;
}

static int pause_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;

	/* Attributes newer than our headers are ignored, not errors. */
	if (mnl_attr_type_valid(a, ETHTOOL_A_PAUSE_MAX) > 0)
		tb[mnl_attr_get_type(a)] = a;
	return MNL_CB_OK;
}

/* Named as ethtool -I -a prints them. */
static const char *const pause_stat_names[] = {
	[ETHTOOL_A_PAUSE_STAT_TX_FRAMES] = "tx_pause_frames",
	[ETHTOOL_A_PAUSE_STAT_RX_FRAMES] = "rx_pause_frames",
};

int rctl_pause_stats_parse(const struct nlmsghdr *nlh, struct rctl_counter_set *s)
{
	const struct nlattr *tb[ETHTOOL_A_PAUSE_MAX + 1] = { 0 };
	const struct nlattr *a;
	struct rctl_counter *c;
	uint16_t t;

	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), pause_attr_cb, tb) != MNL_CB_OK)
		return -EINVAL;
	if (!tb[ETHTOOL_A_PAUSE_STATS] ||
	    mnl_attr_validate(tb[ETHTOOL_A_PAUSE_STATS], MNL_TYPE_NESTED) < 0)
		return 0;
	mnl_attr_for_each_nested(a, tb[ETHTOOL_A_PAUSE_STATS]) {
		t = mnl_attr_get_type(a);
		/* PAD, and statistics newer than our headers, are skipped. */
		if (t >= sizeof(pause_stat_names) / sizeof(pause_stat_names[0]) ||
		    !pause_stat_names[t] || mnl_attr_get_payload_len(a) != sizeof(uint64_t))
			continue;
		c = rctl_arr_push(&s->c, &s->n, sizeof(*c));
		if (!c)
			return -ENOMEM;
		snprintf(c->name, sizeof(c->name), "%s", pause_stat_names[t]);
		c->value = mnl_attr_get_u64(a);
	}
	return 0;
}

static int pause_cb(const struct nlmsghdr *nlh, void *data)
{
	return rctl_pause_stats_parse(nlh, data) ? MNL_CB_ERROR : MNL_CB_OK;
}

static int pause_get(struct rctl_nl *nl, uint16_t family, struct rctl_netdev *nd)
{
	struct nlmsghdr *nlh = rctl_nl_msg(nl, family, NLM_F_ACK);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct nlattr *hdr;

	g->cmd = ETHTOOL_MSG_PAUSE_GET;
	g->version = ETHTOOL_GENL_VERSION;
	hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_HEADER);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, nd->name);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, ETHTOOL_FLAG_STATS);
	mnl_attr_nest_end(nlh, hdr);
	return rctl_nl_talk(nl, nlh, pause_cb, &nd->pause_stats);
}

static const char *pause_why(const struct rctl_nl *nl, int err, bool no_family)
{
	if (no_family)
		return "not exported by this kernel (no ethtool netlink)";
	if (err != -EOPNOTSUPP)
		return NULL;
	/* A kernel older than ETHTOOL_FLAG_STATS refuses the flag itself (extack). */
	if (strstr(nl->ext_ack, "flags"))
		return "not exported by this kernel (no pause statistics)";
	return "not exported by this driver";
}

int rctl_pause_stats(struct rctl_host *h)
{
	struct rctl_err e = { 0 };
	struct rctl_nl nl;
	uint16_t family = 0;
	uint32_t i;
	int fam_ret, ret;

	fam_ret = rctl_nl_open(&nl, NETLINK_GENERIC, &e);
	if (!fam_ret) {
		fam_ret = ethtool_family(&nl, &family);
		fam_ret = fam_ret == -ENOENT ? -EOPNOTSUPP : fam_ret;
	}
	for (i = 0; i < h->n_netdevs; i++) {
		struct rctl_counter_set *s = &h->netdevs[i].pause_stats;

		free(s->c);
		*s = (struct rctl_counter_set){ 0 };
		ret = fam_ret ? fam_ret : pause_get(&nl, family, &h->netdevs[i]);
		/* A reply without statistics: the driver keeps none. */
		if (!ret && !s->n)
			ret = -EOPNOTSUPP;
		if (!ret) {
			s->st.ok = true;
			continue;
		}
		free(s->c);
		s->c = NULL;
		s->n = 0;
		rctl_part_fail(&s->st, ret, pause_why(&nl, ret, fam_ret == -EOPNOTSUPP));
	}
	rctl_nl_close(&nl);	/* a no-op when it did not open */
	return 0;
}

/* ---- SET (tune only: rocectl/write.h) --------------------------------- */

int rctl_ethtool_set_pause(const char *ifname, bool autoneg, bool rx, bool tx)
{
	struct ethtool_pauseparam pp = {
		.cmd = ETHTOOL_SPAUSEPARAM,
		.autoneg = autoneg,
		.rx_pause = rx,
		.tx_pause = tx,
	};
	int fd, ret;

	if (strlen(ifname) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = ethtool_ioctl(fd, ifname, &pp);
	close(fd);
	return ret;
}

/*
 * A driver's private flag (ETHTOOL_GPFLAGS; the names are the string set
 * ETH_SS_PRIV_FLAGS, at most 32 since the flags are one u32): 0 and *on,
 * -ENOENT when the driver has no such flag. The LLDP collector reads ice's
 * "fw-lldp-agent" and i40e's "disable-fw-lldp" (ice_ethtool.c, i40e_ethtool.c).
 */
int rctl_ethtool_priv_flag(const char *ifname, const char *flag, bool *on)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} ss = { .hdr = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_PRIV_FLAGS } };
	struct {
		struct ethtool_gstrings hdr;
		char names[32][ETH_GSTRING_LEN];
	} str = { .hdr = { .cmd = ETHTOOL_GSTRINGS, .string_set = ETH_SS_PRIV_FLAGS } };
	struct ethtool_value v = { .cmd = ETHTOOL_GPFLAGS };
	uint32_t i, n;
	int fd, ret;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = ethtool_ioctl(fd, ifname, &ss);
	n = !ret && (ss.hdr.sset_mask & (1ULL << ETH_SS_PRIV_FLAGS)) ? ss.len : 0;
	ret = ret ? ret : n > 32 ? -E2BIG : n ? 0 : -ENOENT;
	if (!ret) {
		str.hdr.len = n;
		ret = ethtool_ioctl(fd, ifname, &str);
	}
	if (!ret)
		ret = ethtool_ioctl(fd, ifname, &v);
	close(fd);
	for (i = 0; !ret && i < n && i < str.hdr.len; i++)
		if (!strncmp(str.names[i], flag, ETH_GSTRING_LEN)) {
			*on = v.data & (1u << i);
			return 0;
		}
	return ret ? ret : -ENOENT;
}
