// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counters view: rows carry the catalogue's meaning and come problems
 * first, the view's options choose the rows, and the Prometheus mapping puts
 * the PMA data words into a bytes family (times 4) and leaves them out of the
 * events family.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/counters_view.h"

static struct rctl_counter hw[] = {
	{ .name = "rx_write_requests", .value = 0 },			/* traffic */
	{ .name = "out_of_sequence", .value = 7, .delta = 3, .has_delta = true },	/* loss */
};
static struct rctl_counter pma[] = {
	{ .name = "port_rcv_data", .value = 10 },
	{ .name = "port_rcv_packets", .value = 5 },
};
static struct rctl_port port = {
	.port = 1, .hw = hw, .n_hw = 2, .pma = pma, .n_pma = 2,
};
static struct rctl_device dev = {
	.name = "mlx5_0", .driver = "mlx5", .ports = &port, .n_ports = 1,
};
static struct rctl_host host = { .devs = &dev, .n_devs = 1 };

static void test_rows_problems_first(void **state)
{
	uint32_t n;
	struct rctl_crow *r = rctl_port_rows(&host, &dev, &port, &n);

	assert_non_null(r);
	assert_int_equal(n, 4);
	/* loss before traffic, whatever the order of the arrays */
	assert_string_equal(r[0].c->name, "out_of_sequence");
	assert_int_equal(r[0].ce->group, RCTL_CG_LOSS);
	assert_string_equal(r[0].src, "hw");
	assert_true(rctl_crow_problem(&r[0]));
	assert_false(rctl_crow_problem(&r[1]));
	free(r);
}

static void test_view_chooses_rows(void **state)
{
	uint32_t n, i, text = 0, json = 0, nonzero = 0, loss = 0;
	struct rctl_crow *r = rctl_port_rows(&host, &dev, &port, &n);
	const struct rctl_cview plain = { .group = -1 }, nz = { .group = -1, .nonzero = true },
		only_loss = { .has_group = true, .group = RCTL_CG_LOSS };

	assert_non_null(r);
	for (i = 0; i < n; i++) {
		text += rctl_crow_shown(&r[i], &plain, true);
		json += rctl_crow_shown(&r[i], &plain, false);
		nonzero += rctl_crow_shown(&r[i], &nz, false);
		loss += rctl_crow_shown(&r[i], &only_loss, false);
	}
	assert_int_equal(json, 4);	/* JSON and Prometheus show every row */
	assert_int_equal(text, 3);	/* text hides the zero rx_write_requests */
	assert_int_equal(nonzero, 3);
	assert_int_equal(loss, 1);
	free(r);
}

static void test_prom_pma_words_in_bytes(void **state)
{
	const struct rctl_cview v = { .group = -1 };
	struct rctl_prom pr = { 0 };
	const char *ev;

	rctl_counters_prom(&pr, &host, NULL, &v);
	assert_int_equal(pr.err, 0);
	assert_non_null(strstr(pr.buf, "rocectl_rdma_pma_data_bytes_total{device=\"mlx5_0\","
				       "port=\"1\",counter=\"port_rcv_data\"} 40\n"));
	ev = strstr(pr.buf, "# TYPE rocectl_rdma_pma_events_total");
	assert_non_null(ev);
	assert_non_null(strstr(ev, "counter=\"port_rcv_packets\""));
	assert_null(strstr(ev, "counter=\"port_rcv_data\",group"));
	assert_non_null(strstr(pr.buf, "rocectl_rdma_hw_events_total{device=\"mlx5_0\",port=\"1\","
				       "counter=\"out_of_sequence\",group=\"loss\"} 7\n"));
	rctl_prom_free(&pr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_problems_first),
		cmocka_unit_test(test_view_chooses_rows),
		cmocka_unit_test(test_prom_pma_words_in_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
