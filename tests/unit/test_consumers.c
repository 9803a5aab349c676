// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the RDMA consumers: the nldev resource dumps built attribute
 * by attribute as the kernel lays them out (Linux 6.1 drivers/infiniband/
 * core/nldev.c: fill_nldev_handle(), then the RES_QP or RES_CM_ID table of
 * fill_res_qp_entry() / fill_res_cm_id_entry() nests, each ending in
 * fill_res_name_pid()'s RES_PID or RES_KERN_NAME), the join of a kernel QP
 * of rdma_cm to the ULP of its cm_id, the bound on 100,000 QPs, and the
 * environment and configuration parsers' allow-lists.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <rdma/rdma_netlink.h>

#include "rocectl/collect.h"

static char buf[1 << 20];

static struct nlmsghdr *res_msg(uint8_t cmd, const char *dev, struct nlattr **table)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, dev);
	*table = mnl_attr_nest_start(nlh, cmd == RDMA_NLDEV_CMD_RES_QP_GET ?
					  RDMA_NLDEV_ATTR_RES_QP : RDMA_NLDEV_ATTR_RES_CM_ID);
	return nlh;
}

static void owner(struct nlmsghdr *nlh, uint32_t pid, const char *kern)
{
	if (kern)
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_KERN_NAME, kern);
	else
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, pid);
}

/* fill_res_qp_entry(): port (once modified), LQPN, RQPN/PSNs for RC, type, state. */
static void qp(struct nlmsghdr *nlh, uint32_t port, uint32_t lqpn, uint8_t type,
	       uint8_t state, uint32_t pid, const char *kern)
{
	struct nlattr *e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);

	if (port)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, lqpn);
	if (type == 2) {
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RQPN, lqpn + 1);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RQ_PSN, 77);
	}
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_SQ_PSN, 78);
	if (type == 2)
		mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, 3);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, type);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, state);
	owner(nlh, pid, kern);
	mnl_attr_nest_end(nlh, e);
}

/* fill_res_cm_id_entry(): port, LQPN and type with a QP, PS, state, addresses. */
static void cm_id(struct nlmsghdr *nlh, uint32_t port, uint32_t lqpn, uint8_t state,
		  const char *src, uint16_t sport, const char *dst, uint16_t dport,
		  uint32_t pid, const char *kern)
{
	struct nlattr *e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY);
	struct sockaddr_storage ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

	if (port)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (lqpn) {
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, lqpn);
		mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	}
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PS, 0x0106);	/* RDMA_PS_TCP */
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, state);
	memset(&ss, 0, sizeof(ss));
	s4->sin_family = AF_INET;
	s4->sin_port = htons(sport);
	inet_pton(AF_INET, src, &s4->sin_addr);
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_RES_SRC_ADDR, sizeof(ss), &ss);
	if (dst) {
		s4->sin_port = htons(dport);
		inet_pton(AF_INET, dst, &s4->sin_addr);
		mnl_attr_put(nlh, RDMA_NLDEV_ATTR_RES_DST_ADDR, sizeof(ss), &ss);
	}
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_CM_IDN, 100 + lqpn);
	owner(nlh, pid, kern);
	mnl_attr_nest_end(nlh, e);
}

static void free_res(struct rctl_rdma_res *r)
{
	uint32_t i;

	for (i = 0; i < r->n_consumers; i++)
		free(r->consumers[i].vars);
	free(r->consumers);
	free(r->list);
	free(r->counts);
	free(r->conf);
	memset(r, 0, sizeof(*r));
}

/*
 * The lab's kernel (6.1): nvme_rdma's cm_id names the ULP, its QP names
 * rdma_cm; a listening nvmet_rdma cm_id has no QP; a user process has a pid.
 */
static void test_res_join(void **state)
{
	struct rctl_rdma_res r = { 0 };
	struct rctl_res_ctx c = { .res = &r };
	struct nlmsghdr *nlh;
	struct nlattr *t;

	nlh = res_msg(RDMA_NLDEV_CMD_RES_CM_ID_GET, "rxe0", &t);
	cm_id(nlh, 1, 17, 5, "10.0.2.15", 47001, "10.0.2.15", 4420, 0, "nvme_rdma");
	cm_id(nlh, 0, 0, 8, "0.0.0.0", 4420, NULL, 0, 0, "nvmet_rdma");
	cm_id(nlh, 1, 18, 5, "10.0.2.15", 7174, "10.0.2.15", 33000, 4242, NULL);
	mnl_attr_nest_end(nlh, t);
	assert_int_equal(rctl_res_parse(nlh, &c), 0);
	rctl_res_join_ready(&c);
	nlh = res_msg(RDMA_NLDEV_CMD_RES_QP_GET, "rxe0", &t);
	qp(nlh, 1, 1, 1, 3, 0, "ib_core");	/* GSI */
	qp(nlh, 1, 17, 2, 3, 0, "rdma_cm");
	qp(nlh, 1, 18, 2, 3, 4242, NULL);
	qp(nlh, 0, 19, 2, 0, 4242, NULL);	/* created, not yet modified: no port */
	mnl_attr_nest_end(nlh, t);
	assert_int_equal(rctl_res_parse(nlh, &c), 0);
	rctl_res_ctx_free(&c);

	assert_int_equal(r.n_cm_ids, 3);
	assert_int_equal(r.n_qps, 4);
	assert_int_equal(r.n_list, 7);
	assert_string_equal(r.list[0].kind, "cm_id");
	assert_string_equal(r.list[0].owner, "[nvme_rdma]");
	assert_string_equal(r.list[0].state, "CONNECT");
	assert_string_equal(r.list[0].ps, "TCP");
	assert_string_equal(r.list[0].src, "10.0.2.15:47001");
	assert_string_equal(r.list[0].dst, "10.0.2.15:4420");
	assert_string_equal(r.list[1].state, "LISTEN");
	assert_int_equal(r.list[1].port, 0);
	assert_string_equal(r.list[1].dst, "");
	assert_int_equal(r.list[2].pid, 4242);
	assert_string_equal(r.list[3].qp_type, "GSI");
	assert_string_equal(r.list[3].owner, "[ib_core]");
	/* the join: the QP of rdma_cm is nvme_rdma's */
	assert_string_equal(r.list[4].owner, "[nvme_rdma]");
	assert_string_equal(r.list[4].via, "[rdma_cm]");
	assert_string_equal(r.list[4].qp_type, "RC");
	assert_string_equal(r.list[4].state, "RTS");
	assert_string_equal(r.list[6].state, "RESET");
	/* consumers: nvme_rdma, nvmet_rdma, pid 4242, ib_core */
	assert_int_equal(r.n_consumers, 4);
	assert_string_equal(r.consumers[0].name, "[nvme_rdma]");
	assert_int_equal(r.consumers[0].n_qps, 1);
	assert_int_equal(r.consumers[0].n_cm_ids, 1);
	assert_int_equal(r.consumers[2].pid, 4242);
	assert_int_equal(r.consumers[2].n_qps, 2);
	/* RES_CM_IDN: the cm_id's identity across dumps, for tune's state */
	assert_int_equal(r.list[0].id, 117);
	assert_int_equal(r.list[1].id, 100);
	/* connections this host made; nvmet_rdma's listener and what it accepts are not */
	assert_true(rctl_res_cm_active(&r, &r.list[0]));
	assert_true(rctl_res_cm_active(&r, &r.list[2]));
	assert_false(rctl_res_cm_active(&r, &r.list[1]));
	assert_false(rctl_res_cm_active(&r, &r.list[4]));
	snprintf(r.list[2].src, sizeof(r.list[2].src), "10.0.2.15:4420");
	assert_false(rctl_res_cm_active(&r, &r.list[2]));
	free_res(&r);
}

/* A QP of rdma_cm whose cm_id is not in the dump keeps rdma_cm as its owner. */
static void test_res_no_join(void **state)
{
	struct rctl_rdma_res r = { 0 };
	struct rctl_res_ctx c = { .res = &r };
	struct nlmsghdr *nlh;
	struct nlattr *t;

	rctl_res_join_ready(&c);
	nlh = res_msg(RDMA_NLDEV_CMD_RES_QP_GET, "mlx5_0", &t);
	qp(nlh, 1, 33, 2, 3, 0, "rdma_cm");
	mnl_attr_nest_end(nlh, t);
	assert_int_equal(rctl_res_parse(nlh, &c), 0);
	assert_string_equal(r.list[0].owner, "[rdma_cm]");
	assert_string_equal(r.list[0].via, "");
	free_res(&r);
}

/*
 * 100,000 QPs of one process in dump messages of 200 each (a nest's length
 * is 16 bits; the kernel fills a page per message): counted in full, one
 * group, listed up to the cap.
 */
static void test_res_bounded(void **state)
{
	struct rctl_rdma_res r = { 0 };
	struct rctl_res_ctx c = { .res = &r };
	struct nlmsghdr *nlh;
	struct nlattr *t;
	uint32_t m, i;

	rctl_res_join_ready(&c);
	for (m = 0; m < 500; m++) {
		nlh = res_msg(RDMA_NLDEV_CMD_RES_QP_GET, "mlx5_0", &t);
		for (i = 0; i < 200; i++)
			qp(nlh, 1, 100 + m * 200 + i, 2, 3, 777, NULL);
		mnl_attr_nest_end(nlh, t);
		assert_int_equal(rctl_res_parse(nlh, &c), 0);
	}
	assert_int_equal(r.n_qps, 100000);
	assert_int_equal(r.n_list, RCTL_RES_LIST_MAX);
	assert_int_equal(r.n_unlisted, 100000 - RCTL_RES_LIST_MAX);
	assert_int_equal(r.n_counts, 1);
	assert_int_equal(r.counts[0].n, 100000);
	assert_int_equal(r.n_consumers, 1);
	assert_int_equal(r.consumers[0].n_qps, 100000);
	free_res(&r);
}

/* An attribute of the wrong size is absent, never read past its end. */
static void test_res_short_addr(void **state)
{
	struct rctl_rdma_res r = { 0 };
	struct rctl_res_ctx c = { .res = &r };
	struct nlmsghdr *nlh;
	struct nlattr *t, *e;
	uint16_t fam = AF_INET6;

	nlh = res_msg(RDMA_NLDEV_CMD_RES_CM_ID_GET, "mlx5_0", &t);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY);
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_RES_SRC_ADDR, sizeof(fam), &fam);
	mnl_attr_put_u16(nlh, RDMA_NLDEV_ATTR_RES_PID, 5);	/* u32 expected */
	mnl_attr_nest_end(nlh, e);
	mnl_attr_nest_end(nlh, t);
	assert_int_equal(rctl_res_parse(nlh, &c), 0);
	assert_int_equal(r.n_list, 1);
	assert_string_equal(r.list[0].src, "");
	assert_int_equal(r.list[0].pid, 0);
	assert_string_equal(r.list[0].owner, "[kernel]");
	free_res(&r);
}

/* Only the allow-listed variables are kept; a secret never is. */
static void test_environ(void **state)
{
	static const char env[] = "PATH=/usr/bin\0AWS_SECRET_ACCESS_KEY=hunter2\0"
				  "NCCL_IB_TC=106\0NCCL_IB_TCX=1\0XNCCL_IB_TC=5\0"
				  "UCX_IB_TRAFFIC_CLASS=auto\0NCCL_IB_HCA=mlx5_0:1\0NCCL_IB_SL";
	struct rctl_consumer c = { 0 };
	uint32_t i;

	assert_int_equal(rctl_environ_parse(env, sizeof(env) - 1, &c, "/proc/1/environ"), 0);
	assert_int_equal(c.n_vars, 3);
	assert_string_equal(c.vars[0].name, "NCCL_IB_TC");
	assert_string_equal(c.vars[0].value, "106");
	assert_string_equal(c.vars[0].where, "/proc/1/environ");
	assert_string_equal(c.vars[1].name, "UCX_IB_TRAFFIC_CLASS");
	assert_string_equal(c.vars[2].value, "mlx5_0:1");
	for (i = 0; i < c.n_vars; i++)
		assert_null(strstr(c.vars[i].value, "hunter2"));
	free(c.vars);
}

/* ceph.conf's spellings of one option, sections, comments; nccl.conf's KEY=VALUE. */
static void test_conf(void **state)
{
	static const char *const ceph_keys[] = { "ms_async_rdma_dscp", "ms_type", NULL };
	static const char *const nccl_keys[] = { "NCCL_IB_TC", NULL };
	struct rctl_rdma_res r = { 0 };

	assert_int_equal(rctl_conf_parse("[global]\n# ms_async_rdma_dscp = 1\n"
					 "ms type = async+rdma\n\tms async rdma dscp = 26 \n"
					 "key = secret\n", "ceph.conf", "/etc/ceph/ceph.conf",
					 ceph_keys, &r), 0);
	assert_int_equal(r.n_conf, 2);
	assert_string_equal(r.conf[0].name, "ms_type");
	assert_string_equal(r.conf[0].value, "async+rdma");
	assert_string_equal(r.conf[1].name, "ms_async_rdma_dscp");
	assert_string_equal(r.conf[1].value, "26");
	assert_int_equal(rctl_conf_parse("NCCL_DEBUG=INFO\nNCCL_IB_TC=106", "nccl.conf",
					 "/etc/nccl.conf", nccl_keys, &r), 0);
	assert_int_equal(r.n_conf, 3);
	assert_string_equal(r.conf[2].value, "106");
	free_res(&r);
}

/*
 * MLNX_OFED's traffic_class, as main_ext.c traffic_class_show() writes it:
 * the global line when set, then one line per per-destination rule.
 */
static void test_ofed_tclass(void **state)
{
	uint32_t n;
	int g;

	(void)state;
	assert_int_equal(rctl_ofed_tclass_parse("Global tclass=106", &g, &n), 0);
	assert_int_equal(g, 106);
	assert_int_equal(n, 0);
	assert_int_equal(rctl_ofed_tclass_parse("", &g, &n), 0);
	assert_int_equal(g, -1);
	assert_int_equal(rctl_ofed_tclass_parse("Global tclass=0\n"
						"dst_ip=10.0.0.0/24,tclass=106\n"
						"src_ip6=fe80::1,dst_ip6=fe80::2,tclass=96\n",
						&g, &n), 0);
	assert_int_equal(g, 0);
	assert_int_equal(n, 2);
	assert_int_equal(rctl_ofed_tclass_parse("src_ip=10.0.0.1,tclass=26", &g, &n), 0);
	assert_int_equal(g, -1);
	assert_int_equal(n, 1);
	assert_int_equal(rctl_ofed_tclass_parse("Global tclass=256", &g, &n), -EINVAL);
	assert_int_equal(rctl_ofed_tclass_parse("Global tclass=", &g, &n), -EINVAL);
	assert_int_equal(rctl_ofed_tclass_parse("106", &g, &n), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_res_join),
		cmocka_unit_test(test_res_no_join),
		cmocka_unit_test(test_res_bounded),
		cmocka_unit_test(test_res_short_addr),
		cmocka_unit_test(test_environ),
		cmocka_unit_test(test_conf),
		cmocka_unit_test(test_ofed_tclass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
