// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the RDMA endpoint's pure parts: timeouts as poll(2)
 * milliseconds, MTU enums in bytes, REJ reasons, the send flags a work
 * request gets, the QP's caps, the buffers' page rounding, the copy of a CM
 * event's private data, and that closing an endpoint frees only what it
 * holds. Everything that needs a device runs in the lab
 * (tests/lab/50-reach.bats, 51-serve.bats, 61-bench-rdma.bats).
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/rdma_ep.h"

static void test_ms(void **state)
{
	(void)state;
	assert_int_equal(rctl_rdma_ms(0.5), 500);
	assert_int_equal(rctl_rdma_ms(13.0), 13000);
	assert_int_equal(rctl_rdma_ms(0), 0);
	/* poll(2) waits for ever on a negative timeout: never hand it one */
	assert_int_equal(rctl_rdma_ms(-1.0), 0);
	assert_int_equal(rctl_rdma_ms(NAN), 0);
	assert_int_equal(rctl_rdma_ms(1e12), INT_MAX);
}

static void test_mtu_bytes(void **state)
{
	(void)state;
	assert_int_equal(rctl_rdma_mtu_bytes(IBV_MTU_256), 256);
	assert_int_equal(rctl_rdma_mtu_bytes(IBV_MTU_1024), 1024);
	assert_int_equal(rctl_rdma_mtu_bytes(IBV_MTU_4096), 4096);
	assert_int_equal(rctl_rdma_mtu_bytes(0), 0);
	assert_int_equal(rctl_rdma_mtu_bytes(IBV_MTU_4096 + 1), 0);
	assert_int_equal(rctl_rdma_mtu_bytes(-1), 0);
}

static void test_rej_reason(void **state)
{
	(void)state;
	assert_string_equal(rctl_rdma_rej_reason(8),
			    "invalid service id: nothing listening on that port");
	assert_string_equal(rctl_rdma_rej_reason(28), "rejected by the listener");
	assert_string_equal(rctl_rdma_rej_reason(26), "invalid MTU");
	assert_string_equal(rctl_rdma_rej_reason(99), "see IBTA REJ reasons");
}

static void test_send_flags(void **state)
{
	struct rctl_rdma_ep ep = { .max_inline = 64 };
	struct rctl_rdma_wr w = { .len = 64, .signaled = true, .may_inline = true };

	(void)state;
	assert_int_equal(rctl_rdma_send_flags(&ep, &w), IBV_SEND_SIGNALED | IBV_SEND_INLINE);
	w.len = 65;
	assert_int_equal(rctl_rdma_send_flags(&ep, &w), IBV_SEND_SIGNALED);
	/* serve's keepalive: a zero-length WRITE that is never inline */
	w.len = 0;
	w.may_inline = false;
	assert_int_equal(rctl_rdma_send_flags(&ep, &w), IBV_SEND_SIGNALED);
	/* bench rdma's unsignalled WRs */
	w.signaled = false;
	w.may_inline = true;
	w.len = 8;
	assert_int_equal(rctl_rdma_send_flags(&ep, &w), IBV_SEND_INLINE);
	/* a QP made without inline data (the device refused it) */
	ep.max_inline = 0;
	assert_int_equal(rctl_rdma_send_flags(&ep, &w), 0);
}

static void test_qp_attr(void **state)
{
	struct ibv_cq *rcq = (struct ibv_cq *)0x1000, *scq = (struct ibv_cq *)0x2000;
	struct rctl_rdma_ep ep = { .rcq = rcq, .scq = rcq };
	/* serve's client QP at depth 64: + the go or the ready, small answers inline */
	const struct rctl_rdma_caps serve = {
		.split_cq = true, .cq_entries = 66, .send_wr = 65, .recv_wr = 65,
		.send_sge = 1, .recv_sge = 1, .max_inline = 64,
	};
	/* an NVMe-oF I/O queue: SQE + in-capsule data in one SEND */
	const struct rctl_rdma_caps nvmf = {
		.cq_entries = 258, .send_wr = 129, .recv_wr = 129, .send_sge = 2, .recv_sge = 1,
	};
	struct ibv_qp_init_attr qa;

	(void)state;
	rctl_rdma_qp_attr(&ep, &nvmf, &qa);
	assert_int_equal(qa.qp_type, IBV_QPT_RC);
	assert_ptr_equal(qa.send_cq, rcq);
	assert_ptr_equal(qa.recv_cq, rcq);
	assert_int_equal(qa.cap.max_send_wr, 129);
	assert_int_equal(qa.cap.max_send_sge, 2);
	assert_int_equal(qa.cap.max_recv_sge, 1);
	assert_int_equal(qa.cap.max_inline_data, 0);
	assert_false(qa.sq_sig_all);
	ep.scq = scq;
	rctl_rdma_qp_attr(&ep, &serve, &qa);
	assert_ptr_equal(qa.send_cq, scq);
	assert_ptr_equal(qa.recv_cq, rcq);
	assert_int_equal(qa.cap.max_send_wr, 65);
	assert_int_equal(qa.cap.max_recv_wr, 65);
	assert_int_equal(qa.cap.max_inline_data, 64);
}

static void test_page_round(void **state)
{
	(void)state;
	assert_int_equal(rctl_rdma_page_round(1), 4096);
	assert_int_equal(rctl_rdma_page_round(4096), 4096);
	/* the probe's buffer at 64 bytes: source, sink and room for the ready message */
	assert_int_equal(rctl_rdma_page_round(2 * 64 + 64), 4096);
	assert_int_equal(rctl_rdma_page_round(2 * 4096 + 64), 3 * 4096);
	assert_int_equal(rctl_rdma_page_round(0), 0);
}

static void test_cm_ev_copy(void **state)
{
	uint8_t priv[RCTL_RDMA_PRIV_MAX + 1];
	struct rdma_cm_event ev = {
		.event = RDMA_CM_EVENT_REJECTED, .status = 28,
		.param.conn = { .private_data = priv, .private_data_len = 56,
				.initiator_depth = 3, .responder_resources = 5 },
	};
	struct rctl_rdma_cm_ev out;

	(void)state;
	memset(priv, 0x5a, sizeof(priv));
	memset(&out, 0xff, sizeof(out));
	rctl_rdma_cm_ev_copy(&out, &ev);
	assert_int_equal(out.type, RDMA_CM_EVENT_REJECTED);
	assert_int_equal(out.status, 28);
	assert_int_equal(out.priv_len, 56);
	assert_memory_equal(out.priv, priv, 56);
	assert_int_equal(out.priv[56], 0);	/* nothing past what came */
	assert_int_equal(out.initiator_depth, 3);
	assert_int_equal(out.responder_resources, 5);

	/* an event without private data (ROUTE_RESOLVED, a REJ of the CM itself) */
	ev.event = RDMA_CM_EVENT_ROUTE_RESOLVED;
	ev.status = 0;
	ev.param.conn.private_data = NULL;
	ev.param.conn.private_data_len = 200;
	rctl_rdma_cm_ev_copy(&out, &ev);
	assert_int_equal(out.type, RDMA_CM_EVENT_ROUTE_RESOLVED);
	assert_int_equal(out.priv_len, 0);
}

/* An endpoint that holds nothing is closed without a call into verbs or rdma_cm. */
static void test_close_empty(void **state)
{
	static const struct rctl_rdma_ep zero;
	struct rctl_rdma_ep ep;

	(void)state;
	memset(&ep, 0, sizeof(ep));
	ep.connected = true;
	ep.armed = true;
	ep.max_inline = 64;
	rctl_rdma_ep_close(&ep, 1000);
	assert_memory_equal(&ep, &zero, sizeof(ep));
	rctl_rdma_ep_adopt(&ep, NULL);
	rctl_rdma_ep_close(&ep, 0);
	assert_memory_equal(&ep, &zero, sizeof(ep));
	assert_string_equal(rctl_rdma_ep_dev(&ep), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ms),
		cmocka_unit_test(test_mtu_bytes),
		cmocka_unit_test(test_rej_reason),
		cmocka_unit_test(test_send_flags),
		cmocka_unit_test(test_qp_attr),
		cmocka_unit_test(test_page_round),
		cmocka_unit_test(test_cm_ev_copy),
		cmocka_unit_test(test_close_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
