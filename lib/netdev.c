// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libnl-route-3: links and addresses of the netdevs under RDMA ports, and of
 * the netdevs stacked with them: VLANs (IFLA_LINK, IFLA_VLAN_ID,
 * IFLA_VLAN_EGRESS_QOS), the bond above a port (IFLA_MASTER) and its slaves;
 * and the kernel's route to an address (RTM_GETROUTE, over libmnl).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>
#include <net/if.h>
#include <linux/rtnetlink.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/vlan.h>

#include "rocectl/collect.h"

static void netdev_addrs(struct nl_cache *addrs, struct rctl_netdev *nd)
{
	struct nl_object *obj;

	for (obj = nl_cache_get_first(addrs); obj; obj = nl_cache_get_next(obj)) {
		struct rtnl_addr *a = (struct rtnl_addr *)obj;
		struct nl_addr *local = rtnl_addr_get_local(a);
		struct rctl_addr *ra;
		char buf[RCTL_ADDR_LEN + 8];
		size_t n;

		if ((uint32_t)rtnl_addr_get_ifindex(a) != nd->ifindex || !local)
			continue;
		ra = rctl_arr_push(&nd->addrs, &nd->n_addrs, sizeof(*ra));
		if (!ra)
			return;
		nl_addr2str(local, buf, sizeof(buf));
		n = strcspn(buf, "/");
		if (n >= sizeof(ra->ip))
			continue;
		memcpy(ra->ip, buf, n);
		ra->prefix = rtnl_addr_get_prefixlen(a);
		snprintf(ra->family, sizeof(ra->family), "%s",
			 rtnl_addr_get_family(a) == AF_INET ? "inet" : "inet6");
	}
}

/* The name of the link with "ifindex" into buf; "" when there is none. */
static void link_name(struct nl_cache *links, int ifindex, char *buf, size_t len)
{
	buf[0] = '\0';
	if (ifindex > 0)
		rtnl_link_i2name(links, ifindex, buf, len);
}

/* A VLAN's id, real device and egress-qos-map (skb priority -> PCP). */
static void netdev_vlan(struct nl_cache *links, struct rtnl_link *l,
			struct rctl_netdev *nd)
{
	struct vlan_map *map;
	int i, n = 0;

	nd->vlan_id = rtnl_link_vlan_get_id(l);
	link_name(links, rtnl_link_get_link(l), nd->vlan_lower, sizeof(nd->vlan_lower));
	map = rtnl_link_vlan_get_egress_map(l, &n);
	for (i = 0; map && i < n; i++)
		if (map[i].vm_from < 8)
			nd->vlan_egress_qos[map[i].vm_from] = map[i].vm_to & 7;
}

static void netdev_fill(struct nl_cache *links, struct nl_cache *addrs,
			struct rctl_netdev *nd)
{
	struct rtnl_link *l = rtnl_link_get_by_name(links, nd->name);
	char buf[sizeof(nd->operstate)];

	if (!l)
		return;
	nd->ifindex = rtnl_link_get_ifindex(l);
	nd->mtu = rtnl_link_get_mtu(l);
	rtnl_link_operstate2str(rtnl_link_get_operstate(l), buf, sizeof(buf));
	snprintf(nd->operstate, sizeof(nd->operstate), "%s", buf);
	if (rtnl_link_get_type(l))
		snprintf(nd->kind, sizeof(nd->kind), "%s", rtnl_link_get_type(l));
	if (rtnl_link_is_vlan(l))
		netdev_vlan(links, l, nd);
	link_name(links, rtnl_link_get_master(l), nd->master, sizeof(nd->master));
	rtnl_link_put(l);
	netdev_addrs(addrs, nd);
}

static void netdev_want(struct rctl_host *h, const char *name)
{
	struct rctl_netdev *nd;

	if (!name[0] || rctl_host_netdev(h, name))
		return;
	nd = rctl_arr_push(&h->netdevs, &h->n_netdevs, sizeof(*nd));
	if (nd)
		snprintf(nd->name, sizeof(nd->name), "%s", name);
}

/*
 * The netdevs stacked with netdev i: the real device under a VLAN, the bond
 * above a slave (RoCE LAG: the RDMA port names one slave, its GIDs sit on the
 * bond) and every slave of a bond, where DCB lives. Called for each netdev in
 * turn, so the list closes over the stack; names are copied before pushing,
 * which may move the array.
 */
static void netdev_stack(struct nl_cache *links, struct rctl_host *h, uint32_t i)
{
	char lower[RCTL_IFNAME_LEN], master[RCTL_IFNAME_LEN], slave[RCTL_IFNAME_LEN];
	bool bond = !strcmp(h->netdevs[i].kind, "bond");
	int ifindex = h->netdevs[i].ifindex;
	struct nl_object *obj;

	snprintf(lower, sizeof(lower), "%s", h->netdevs[i].vlan_lower);
	snprintf(master, sizeof(master), "%s", h->netdevs[i].master);
	netdev_want(h, lower);
	netdev_want(h, master);
	for (obj = nl_cache_get_first(links); bond && obj; obj = nl_cache_get_next(obj)) {
		struct rtnl_link *l = (struct rtnl_link *)obj;

		if (rtnl_link_get_master(l) != ifindex || !rtnl_link_get_name(l))
			continue;
		snprintf(slave, sizeof(slave), "%s", rtnl_link_get_name(l));
		netdev_want(h, slave);
	}
}

int rctl_netdev_collect(struct rctl_host *h, struct rctl_err *e)
{
	struct nl_cache *links = NULL, *addrs = NULL;
	struct nl_sock *sk;
	uint32_t i, j, k;
	int ret;

	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++) {
			struct rctl_port *p = &h->devs[i].ports[j];

			netdev_want(h, p->netdev);
			for (k = 0; k < p->n_gids; k++)
				netdev_want(h, p->gids[k].netdev);
		}
	if (!h->n_netdevs)
		return 0;
	sk = nl_socket_alloc();
	if (!sk)
		return rctl_err_strerror(e, ENOMEM, "cannot allocate a route netlink socket");
	ret = nl_connect(sk, NETLINK_ROUTE);
	if (!ret)
		ret = rtnl_link_alloc_cache(sk, AF_UNSPEC, &links);
	if (!ret)
		ret = rtnl_addr_alloc_cache(sk, &addrs);
	if (ret) {
		rctl_host_unread(h, EIO, nl_geterror(ret), "netdev links and addresses");
	} else {
		for (i = 0; i < h->n_netdevs; i++) {
			netdev_fill(links, addrs, &h->netdevs[i]);
			netdev_stack(links, h, i);
		}
	}
	nl_cache_free(addrs);
	nl_cache_free(links);
	nl_socket_free(sk);
	return 0;
}

struct route_reply {
	int family;
	uint32_t oif;
	char src[RCTL_ADDR_LEN];
};

static int route_attr_cb(const struct nlattr *a, void *data)
{
	struct route_reply *r = data;
	uint16_t len = mnl_attr_get_payload_len(a);

	switch (mnl_attr_get_type(a)) {
	case RTA_OIF:
		if (len == sizeof(uint32_t))
			r->oif = mnl_attr_get_u32(a);
		break;
	case RTA_PREFSRC:
		if (len == (r->family == AF_INET ? 4 : 16))
			inet_ntop(r->family, mnl_attr_get_payload(a), r->src, sizeof(r->src));
		break;
	}
	return MNL_CB_OK;
}

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(struct rtmsg), route_attr_cb, data);
	return MNL_CB_OK;
}

/*
 * "ip route get DST": the output interface and preferred source the kernel
 * picks for dst (fib lookup of RTM_GETROUTE, net/ipv4/route.c
 * inet_rtm_getroute(), net/ipv6/route.c inet6_rtm_getroute()).
 */
int rctl_route_get(const char *dst, char *ifname, size_t len, char *src, size_t src_len,
		   struct rctl_err *e)
{
	struct route_reply r = { .family = strchr(dst, ':') ? AF_INET6 : AF_INET };
	unsigned char addr[16];
	char name[IF_NAMESIZE];
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	struct rctl_nl nl;
	int ret;

	if (inet_pton(r.family, dst, addr) != 1)
		return rctl_err_plain(e, EINVAL, "cannot look up the route to '%s': not an IP address",
				      dst);
	ret = rctl_nl_open(&nl, NETLINK_ROUTE, e);
	if (ret)
		return ret;
	nlh = rctl_nl_msg(&nl, RTM_GETROUTE, NLM_F_REQUEST | NLM_F_ACK);
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = r.family;
	rtm->rtm_dst_len = r.family == AF_INET ? 32 : 128;
	mnl_attr_put(nlh, RTA_DST, r.family == AF_INET ? 4 : 16, addr);
	ret = rctl_nl_talk(&nl, nlh, route_cb, &r);
	rctl_nl_close(&nl);
	if (ret)
		return rctl_err_strerror(e, -ret, "cannot look up the route to '%s'", dst);
	if (!r.oif || !if_indextoname(r.oif, name))
		return rctl_err_plain(e, ENETUNREACH, "cannot look up the route to '%s': "
				      "no output interface", dst);
	snprintf(ifname, len, "%s", name);
	snprintf(src, src_len, "%s", r.src);
	return 0;
}
