// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The LLDP neighbour of each RoCE netdev (include/rocectl/lldp.h), from the
 * source the host has, in this order:
 *  - lldpd, through liblldpctl (lldpd 1.0.16, src/lib/lldpctl.h): identity,
 *    the MFS lldpd decodes itself (lldpctl_k_port_dot3_mfs), and the 802.1Qaz
 *    TLVs, which lldpd keeps as unknown organisation TLVs
 *    (lldpctl_k_custom_tlvs: OUI, subtype, information string) for
 *    lib/lldp.c to decode. Over our own socket callbacks, so that every
 *    read and write waits at most RCTL_LLDPD_TIMEOUT_MS. liblldpctl is
 *    loaded at run time, and only once lldpd's socket answers: the library
 *    ships in Debian's lldpd package, whose installation starts an LLDP
 *    agent on every interface, so the package must not depend on it;
 *  - when asked, one frame per netdev from an AF_PACKET socket bound to the
 *    netdev and the LLDP ethertype, behind a classic BPF filter. Nothing is
 *    sent; the socket joins the nearest-bridge group 01:80:c2:00:00:0e so
 *    the NIC passes it up, for as long as it is open;
 *  - else "unknown", with the reason that fits: a firmware LLDP agent that
 *    takes the frames, no CAP_NET_RAW, no LLDP in the time given.
 */
#include <dlfcn.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include <lldpctl.h>

#include "rocectl/clock.h"
#include "rocectl/collect.h"
#include "rocectl/lldp.h"

#define RCTL_LLDPD_TIMEOUT_MS 2000

/* ---- which netdevs ---------------------------------------------------- */

/*
 * LLDP runs on the physical link: a RoCE port's netdev, and under RoCE LAG
 * every slave of its bond. VLANs and the bond itself have no neighbour.
 */
static bool lldp_netdev(const struct rctl_host *h, const struct rctl_netdev *nd)
{
	const struct rctl_netdev *bond;
	uint32_t i;

	if (!strcmp(nd->kind, "vlan") || !strcmp(nd->kind, "bond"))
		return false;
	if (rctl_port_netdev(h, nd->name))
		return true;
	bond = nd->master[0] ? rctl_host_netdev(h, nd->master) : NULL;
	for (i = 0; bond && i < h->n_netdevs; i++)
		if (rctl_port_netdev(h, h->netdevs[i].name) &&
		    rctl_bond_of(h, &h->netdevs[i]) == bond)
			return true;
	return false;
}

/* ---- lldpd ------------------------------------------------------------ */

struct lldpd_io {
	int fd;
	uint64_t deadline;
};

/*
 * lldpd's control socket when ROCECTL_LLDPD_SOCKET does not name one: lldpd
 * 1.0.16's configure.ac, --with-lldpd-ctl-socket, ${runstatedir}/lldpd.socket,
 * which is /run/lldpd.socket in Debian's and Fedora's builds and what their
 * liblldpctl's lldpctl_get_default_transport() returns. Known before the
 * library is loaded, since whether lldpd runs decides whether to load it.
 */
#define RCTL_LLDPD_SOCKET "/run/lldpd.socket"

/* liblldpctl's soname (objdump -p of Debian 12's lldpd 1.0.16: liblldpctl.so.4.9.1). */
#define RCTL_LLDPCTL_SONAME "liblldpctl.so.4"

/*
 * The functions of liblldpctl this file calls, typed by the header
 * (liblldpctl-dev is a build dependency, the library is not linked), each
 * looked up by name and checked before any is called.
 */
#define LLDPCTL_FUNCS(X)                                                          \
	X(lldpctl_new) X(lldpctl_release) X(lldpctl_last_error) X(lldpctl_strerror)   \
	X(lldpctl_get_interfaces) X(lldpctl_get_port) X(lldpctl_atom_get)             \
	X(lldpctl_atom_get_int) X(lldpctl_atom_get_str) X(lldpctl_atom_get_buffer)    \
	X(lldpctl_atom_dec_ref) X(lldpctl_atom_iter) X(lldpctl_atom_iter_next)        \
	X(lldpctl_atom_iter_value)

static struct lldpctl_fns {
#define LLDPCTL_PTR(f) __typeof__(f) *f;
	LLDPCTL_FUNCS(LLDPCTL_PTR)
#undef LLDPCTL_PTR
} lc;

/* Each function's name and where its address goes (POSIX's dlsym() idiom). */
static const struct {
	const char *name;
	void **slot;
} lldpctl_syms[] = {
#define LLDPCTL_SYM(f) { .name = #f, .slot = (void **)&lc.f },
	LLDPCTL_FUNCS(LLDPCTL_SYM)
#undef LLDPCTL_SYM
};

/* 0 when every function of lc is there; else why not, in why. */
static int lldpctl_load(char *why, size_t len)
{
	static void *dl;
	const char *err;
	size_t i;

	if (dl)
		return 0;
	dl = dlopen(RCTL_LLDPCTL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		err = dlerror();
		snprintf(why, len, "lldpd runs, but its library cannot be loaded: %s",
			 err ? err : RCTL_LLDPCTL_SONAME);
		return -ENOENT;
	}
	for (i = 0; i < sizeof(lldpctl_syms) / sizeof(lldpctl_syms[0]); i++) {
		*lldpctl_syms[i].slot = dlsym(dl, lldpctl_syms[i].name);
		if (!*lldpctl_syms[i].slot) {
			snprintf(why, len, "lldpd runs, but '%s' has no '%s'", RCTL_LLDPCTL_SONAME,
				 lldpctl_syms[i].name);
			dlclose(dl);
			dl = NULL;
			return -ENOENT;
		}
	}
	return 0;
}

/* lldpctl_atom_foreach() of lldpctl.h, through lc. */
#define lc_foreach(atom, value)                                                       \
	for (lldpctl_atom_iter_t *it_ = lc.lldpctl_atom_iter(atom);                      \
	     it_ && ((value) = lc.lldpctl_atom_iter_value(atom, it_));                   \
	     it_ = lc.lldpctl_atom_iter_next(atom, it_), lc.lldpctl_atom_dec_ref(value))

static const char *lldpd_socket(void)
{
	const char *s = getenv("ROCECTL_LLDPD_SOCKET");

	return s && s[0] ? s : RCTL_LLDPD_SOCKET;
}

static int io_wait(struct lldpd_io *io, short ev)
{
	uint64_t now = rctl_clock_ns();
	struct pollfd p = { .fd = io->fd, .events = ev };
	int ret;

	if (now >= io->deadline)
		return -ETIMEDOUT;
	ret = poll(&p, 1, (int)((io->deadline - now) / 1000000) + 1);
	return ret > 0 ? 0 : ret == 0 ? -ETIMEDOUT : -errno;
}

static ssize_t io_send(lldpctl_conn_t *c, const uint8_t *data, size_t len, void *user)
{
	struct lldpd_io *io = user;
	ssize_t n;

	if (io_wait(io, POLLOUT))
		return LLDPCTL_ERR_CALLBACK_FAILURE;
	n = send(io->fd, data, len, MSG_NOSIGNAL);
	return n < 0 ? LLDPCTL_ERR_CALLBACK_FAILURE : n;
}

static ssize_t io_recv(lldpctl_conn_t *c, const uint8_t *data, size_t len, void *user)
{
	struct lldpd_io *io = user;
	ssize_t n;

	if (io_wait(io, POLLIN))
		return LLDPCTL_ERR_CALLBACK_FAILURE;
	n = recv(io->fd, (void *)data, len, 0);
	return n < 0 ? LLDPCTL_ERR_CALLBACK_FAILURE : n == 0 ? LLDPCTL_ERR_EOF : n;
}

static int lldpd_connect(struct lldpd_io *io, char *why, size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = lldpd_socket();
	int err;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	io->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (io->fd >= 0 && !connect(io->fd, (struct sockaddr *)&sa, sizeof(sa)))
		return 0;
	err = errno;
	if (io->fd >= 0)
		close(io->fd);
	io->fd = -1;
	if (err == ENOENT || err == ECONNREFUSED)
		snprintf(why, len, "lldpd does not run (no '%s')", path);
	else
		snprintf(why, len, "cannot connect to lldpd at '%s': %s", path, strerror(err));
	return -err;
}

static void lldpd_id(lldpctl_atom_t *a, lldpctl_key_t key, lldpctl_key_t sub, bool chassis,
		     uint32_t *subtype, char *buf, size_t size)
{
	const uint8_t *id;
	size_t n = 0;

	*subtype = (uint32_t)lc.lldpctl_atom_get_int(a, sub);
	id = lc.lldpctl_atom_get_buffer(a, key, &n);
	if (id && n)
		rctl_lldp_id_text(*subtype, chassis, id, n, buf, size);
}

static void lldpd_str(lldpctl_atom_t *a, lldpctl_key_t key, char *buf, size_t size)
{
	const char *s = lc.lldpctl_atom_get_str(a, key);

	snprintf(buf, size, "%s", s ? s : "");
}

/* The organisation TLVs lldpd did not know, through the one decoder. */
static int lldpd_custom(lldpctl_atom_t *nb, struct rctl_lldp_peer *p)
{
	lldpctl_atom_t *list = lc.lldpctl_atom_get(nb, lldpctl_k_custom_tlvs), *tlv;
	const uint8_t *oui, *info;
	size_t on = 0, in = 0;
	int ret = 0;

	if (!list)
		return 0;
	lc_foreach(list, tlv) {
		oui = lc.lldpctl_atom_get_buffer(tlv, lldpctl_k_custom_tlv_oui, &on);
		info = lc.lldpctl_atom_get_buffer(tlv, lldpctl_k_custom_tlv_oui_info_string, &in);
		if (oui && on == 3 && rctl_lldp_decode_org(
			    (uint32_t)oui[0] << 16 | oui[1] << 8 | oui[2],
			    (uint8_t)lc.lldpctl_atom_get_int(tlv, lldpctl_k_custom_tlv_oui_subtype),
			    info ? info : (const uint8_t *)"", info ? in : 0, p) == -ENOMEM)
			ret = -ENOMEM;
	}
	lc.lldpctl_atom_dec_ref(list);
	return ret;
}

static int lldpd_neighbour(lldpctl_atom_t *nb, struct rctl_lldp_peer *p)
{
	lldpctl_atom_t *ch = lc.lldpctl_atom_get(nb, lldpctl_k_port_chassis);
	long mfs = lc.lldpctl_atom_get_int(nb, lldpctl_k_port_dot3_mfs);
	long ttl = lc.lldpctl_atom_get_int(nb, lldpctl_k_port_ttl);

	rctl_lldp_clear(p);
	if (ch) {
		lldpd_id(ch, lldpctl_k_chassis_id, lldpctl_k_chassis_id_subtype, true,
			 &p->chassis_id_subtype, p->chassis_id, sizeof(p->chassis_id));
		lldpd_str(ch, lldpctl_k_chassis_name, p->system_name, sizeof(p->system_name));
		lc.lldpctl_atom_dec_ref(ch);
	}
	lldpd_id(nb, lldpctl_k_port_id, lldpctl_k_port_id_subtype, false, &p->port_id_subtype,
		 p->port_id, sizeof(p->port_id));
	lldpd_str(nb, lldpctl_k_port_descr, p->port_descr, sizeof(p->port_descr));
	p->ttl = ttl > 0 ? (uint32_t)ttl : 0;
	/* lldpd says 0 when no MFS TLV came (lldpd-structs.h p_mfs). */
	p->has_mfs = mfs > 0;
	p->mfs = mfs > 0 ? (uint32_t)mfs : 0;
	snprintf(p->source, sizeof(p->source), "lldpd");
	p->st.ok = true;
	return lldpd_custom(nb, p);
}

/* The first neighbour lldpd holds on one interface, into nd. */
static int lldpd_interface(lldpctl_atom_t *ifc, struct rctl_netdev *nd)
{
	lldpctl_atom_t *port = lc.lldpctl_get_port(ifc), *nbs, *nb;
	int ret = 0;

	if (!port)
		return 0;
	nbs = lc.lldpctl_atom_get(port, lldpctl_k_port_neighbors);
	if (nbs) {
		lc_foreach(nbs, nb) {
			if (lc.lldpctl_atom_get_int(nb, lldpctl_k_port_hidden) > 0)
				continue;
			ret = lldpd_neighbour(nb, &nd->lldp);
			lc.lldpctl_atom_dec_ref(nb);
			break;
		}
		lc.lldpctl_atom_dec_ref(nbs);
	}
	lc.lldpctl_atom_dec_ref(port);
	return ret;
}

static int lldpd_read(struct rctl_host *h, lldpctl_conn_t *conn, char *why, size_t len)
{
	lldpctl_atom_t *ifs = lc.lldpctl_get_interfaces(conn), *ifc;
	struct rctl_netdev *nd;
	int ret = 0;

	if (!ifs) {
		snprintf(why, len, "lldpd did not answer: %s", lc.lldpctl_strerror(lc.lldpctl_last_error(conn)));
		return -EIO;
	}
	lc_foreach(ifs, ifc) {
		nd = rctl_host_netdev(h, lc.lldpctl_atom_get_str(ifc, lldpctl_k_interface_name) ?: "");
		if (nd && lldp_netdev(h, nd) && !ret)
			ret = lldpd_interface(ifc, nd);
	}
	lc.lldpctl_atom_dec_ref(ifs);
	return ret;
}

/* 0 when lldpd answered (what it had is in the model); else why not. */
static int lldpd_collect(struct rctl_host *h, char *why, size_t len)
{
	struct lldpd_io io = { .deadline = rctl_clock_ns() + RCTL_LLDPD_TIMEOUT_MS * 1000000ULL };
	lldpctl_conn_t *conn;
	int ret;

	ret = lldpd_connect(&io, why, len);
	if (ret)
		return ret;
	ret = lldpctl_load(why, len);
	if (ret) {
		close(io.fd);
		return ret;
	}
	conn = lc.lldpctl_new(io_send, io_recv, &io);
	if (!conn) {
		close(io.fd);
		return -ENOMEM;
	}
	ret = lldpd_read(h, conn, why, len);
	lc.lldpctl_release(conn);
	close(io.fd);
	return ret;
}

/* ---- capture ---------------------------------------------------------- */

struct rctl_lldp_cap {
	uint32_t n;
	struct cap_one {
		int fd;
		int err;		/* why there is no socket */
		uint32_t netdev;	/* index into h->netdevs */
	} *one;
	uint64_t t0;		/* when it began to listen */
	char lldpd_why[RCTL_REASON_LEN];
};

/* ldh [12]; jeq #0x88cc, accept, drop: nothing but LLDP is queued. */
static const struct sock_filter lldp_bpf[] = {
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RCTL_LLDP_ETHERTYPE, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, 0xffff),
	BPF_STMT(BPF_RET | BPF_K, 0),
};

static int cap_open(const struct rctl_netdev *nd)
{
	struct sock_fprog prog = {
		.len = sizeof(lldp_bpf) / sizeof(lldp_bpf[0]),
		.filter = (struct sock_filter *)lldp_bpf,
	};
	struct packet_mreq mr = {
		.mr_ifindex = (int)nd->ifindex, .mr_type = PACKET_MR_MULTICAST, .mr_alen = 6,
		.mr_address = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e },
	};
	struct sockaddr_ll sa = {
		.sll_family = AF_PACKET, .sll_protocol = htons(RCTL_LLDP_ETHERTYPE),
		.sll_ifindex = (int)nd->ifindex,
	};
	int fd, err;

	/* Protocol 0 until bound: no frame of another netdev queues meanwhile. */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = errno;
		close(fd);
		return -err;
	}
	/* Best effort: a veth passes every group, a NIC may need it. */
	setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr));
	return fd;
}

int rctl_lldp_begin(struct rctl_host *h, bool capture, struct rctl_lldp_cap **capp,
		    struct rctl_err *e)
{
	struct rctl_lldp_cap *cap = calloc(1, sizeof(*cap));
	struct cap_one *c;
	uint32_t i;
	int ret;

	*capp = cap;
	if (!cap)
		return rctl_err_strerror(e, ENOMEM, "cannot read the LLDP neighbours");
	cap->t0 = rctl_clock_ns();
	ret = lldpd_collect(h, cap->lldpd_why, sizeof(cap->lldpd_why));
	if (ret == -ENOMEM)
		return rctl_err_strerror(e, ENOMEM, "cannot read the LLDP neighbours from lldpd");
	if (!ret)
		snprintf(cap->lldpd_why, sizeof(cap->lldpd_why), "lldpd has no neighbour on it");
	for (i = 0; capture && i < h->n_netdevs; i++) {
		if (!lldp_netdev(h, &h->netdevs[i]) || h->netdevs[i].lldp.st.ok)
			continue;
		c = rctl_arr_push(&cap->one, &cap->n, sizeof(*c));
		if (!c)
			return rctl_err_strerror(e, ENOMEM, "cannot capture LLDP");
		c->netdev = i;
		c->fd = cap_open(&h->netdevs[i]);
		c->err = c->fd < 0 ? -c->fd : 0;
	}
	return 0;
}

/* One queued frame of c's socket: 1 decoded into nd, 0 none (yet). */
static int cap_read(struct cap_one *c, struct rctl_netdev *nd)
{
	struct sockaddr_ll from;
	socklen_t fl;
	uint8_t frame[1600];
	ssize_t n;
	int ret, i;

	/* Bounded: a flood of frames that do not decode cannot hold the wait. */
	for (i = 0;; i++) {
		if (i == 64)
			return 0;
		fl = sizeof(from);
		n = recvfrom(c->fd, frame, sizeof(frame), MSG_TRUNC, (struct sockaddr *)&from, &fl);
		if (n < 0)
			return 0;
		/* Our own lldpd's frames go out on the same netdev: not the switch. */
		if (from.sll_pkttype == PACKET_OUTGOING || (size_t)n > sizeof(frame))
			continue;
		/* A frame that does not decode is not the neighbour: wait for the next. */
		ret = rctl_lldp_decode_frame(frame, (size_t)n, &nd->lldp);
		if (ret == -ENOMEM)
			return ret;
		if (!ret)
			break;
	}
	snprintf(nd->lldp.source, sizeof(nd->lldp.source), "capture");
	nd->lldp.st.ok = true;
	close(c->fd);
	c->fd = -1;
	return 1;
}

/* Wait until every socket has its frame or the deadline passes. */
static int cap_wait(struct rctl_host *h, struct rctl_lldp_cap *cap, double wait_s)
{
	uint64_t deadline = rctl_clock_ns() + (uint64_t)(wait_s * 1e9), now;
	struct pollfd *p = calloc(cap->n ? cap->n : 1, sizeof(*p));
	uint32_t i, open;
	int ret = 0;

	if (!p)
		return -ENOMEM;
	for (;;) {
		for (i = 0, open = 0; i < cap->n; i++) {
			p[i] = (struct pollfd){ .fd = cap->one[i].fd, .events = POLLIN };
			if (cap->one[i].fd >= 0 &&
			    (ret = cap_read(&cap->one[i], &h->netdevs[cap->one[i].netdev])) < 0)
				break;
			p[i].fd = cap->one[i].fd;
			open += p[i].fd >= 0;
		}
		now = rctl_clock_ns();
		if (ret < 0 || !open || now >= deadline)
			break;
		if (poll(p, cap->n, (int)((deadline - now) / 1000000) + 1) < 0 && errno != EINTR)
			break;
	}
	free(p);
	return ret < 0 ? ret : 0;
}

/*
 * The private flags that say a NIC's firmware runs its LLDP agent, which
 * takes the switch's frames before the host sees them (ice_ethtool.c,
 * i40e_ethtool.c): ice's "fw-lldp-agent", called "enable-fw-lldp" before
 * its rename, and i40e's "disable-fw-lldp" when off.
 */
static const struct {
	const char *driver, *flag;
	bool agent_when;
} fw_flags[] = {
	{ .driver = "ice", .flag = "fw-lldp-agent", .agent_when = true },
	{ .driver = "ice", .flag = "enable-fw-lldp", .agent_when = true },
	{ .driver = "i40e", .flag = "disable-fw-lldp", .agent_when = false },
};

/* A firmware LLDP agent on the NIC under nd: a flag above, or DCBX in firmware (lib/dcb.c). */
static void fw_agent(struct rctl_netdev *nd)
{
	size_t i;
	bool on;

	for (i = 0; i < sizeof(fw_flags) / sizeof(fw_flags[0]); i++)
		if (!strcmp(nd->driver, fw_flags[i].driver) &&
		    !rctl_ethtool_priv_flag(nd->name, fw_flags[i].flag, &on)) {
			if (on == fw_flags[i].agent_when)
				snprintf(nd->lldp.fw_agent, sizeof(nd->lldp.fw_agent), "%s %s %s",
					 nd->driver, fw_flags[i].flag, on ? "on" : "off");
			return;
		}
	/*
	 * DCBX run by the NIC, not the host: bnxt_en's firmware agent says
	 * LLD_MANAGED; mlx5 in firmware mode leaves out DCB_CAP_DCBX_HOST and
	 * keeps only the version bits (en_dcbnl.c mlx5e_dcbnl_initialize()).
	 */
	if (nd->dcbx.st.ok && !(nd->dcbx.mode & RCTL_DCBX_HOST) &&
	    (nd->dcbx.mode & (RCTL_DCBX_LLD_MANAGED | RCTL_DCBX_VER_CEE | RCTL_DCBX_VER_IEEE)))
		snprintf(nd->lldp.fw_agent, sizeof(nd->lldp.fw_agent),
			 "%s firmware DCBX (dcbx mode 0x%x)", nd->driver, nd->dcbx.mode);
}

/* Why nd has no neighbour: the reason that fits its NIC and the sources tried. */
static void no_neighbour(struct rctl_netdev *nd, const struct rctl_lldp_cap *cap,
			 const struct cap_one *c)
{
	double wait_s = (double)((rctl_clock_ns() - cap->t0) / 100000000) / 10;

	struct rctl_part *st = &nd->lldp.st;
	size_t len = sizeof(st->reason);

	rctl_lldp_clear(&nd->lldp);
	nd->lldp.source[0] = '\0';
	fw_agent(nd);
	st->ok = false;
	st->err = !c ? ENOENT : c->err ? c->err : ETIMEDOUT;
	if (!c)
		snprintf(st->reason, len, "%s, and no --lldp-wait was given", cap->lldpd_why);
	else if (c->err == EPERM || c->err == EACCES)
		snprintf(st->reason, len, "%s, and capturing LLDP needs CAP_NET_RAW (run as root)",
			 cap->lldpd_why);
	else if (c->err)
		snprintf(st->reason, len, "%s, and cannot capture on '%s': %s", cap->lldpd_why,
			 nd->name, strerror(c->err));
	else if (nd->lldp.fw_agent[0])
		snprintf(st->reason, len, "no LLDP frame in %g s: the NIC's firmware LLDP agent "
			 "(%s) may take them", wait_s, nd->lldp.fw_agent);
	else
		snprintf(st->reason, len, "%s, and no LLDP frame came in %g s (switches send "
			 "every 30 s by default)", cap->lldpd_why, wait_s);
}

int rctl_lldp_end(struct rctl_host *h, struct rctl_lldp_cap *cap, double wait_s,
		  struct rctl_err *e)
{
	const struct cap_one *c;
	uint32_t i, k;
	int ret = cap ? cap_wait(h, cap, wait_s) : -ENOMEM;

	for (i = 0; !ret && i < h->n_netdevs; i++) {
		if (!lldp_netdev(h, &h->netdevs[i]) || h->netdevs[i].lldp.st.ok)
			continue;
		for (k = 0, c = NULL; k < cap->n && !c; k++)
			c = cap->one[k].netdev == i ? &cap->one[k] : NULL;
		no_neighbour(&h->netdevs[i], cap, c);
	}
	for (k = 0; cap && k < cap->n; k++)
		if (cap->one[k].fd >= 0)
			close(cap->one[k].fd);
	if (cap)
		free(cap->one);
	free(cap);
	return ret ? rctl_err_strerror(e, -ret, "cannot capture LLDP") : 0;
}

int rctl_lldp_collect(struct rctl_host *h, double wait_s, struct rctl_err *e)
{
	struct rctl_lldp_cap *cap;
	int ret = rctl_lldp_begin(h, wait_s > 0, &cap, e);

	if (ret) {
		rctl_lldp_end(h, cap, 0, e);
		return ret;
	}
	return rctl_lldp_end(h, cap, wait_s, e);
}
