/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Capture (lib/capture.c): RoCE v2 packets through libpcap, from a netdev
 * (a bounded live capture of UDP 4791, headers only) or from a pcap or
 * pcapng file (tcpdump, tshark, ibdump, a switch mirror), decoded by
 * lib/roce_wire.c into the model's struct rctl_wire.
 *
 * A live capture sees RoCE only where it passes the kernel: Soft-RoCE (rxe)
 * on its netdev, a mirror or SPAN port. mlx5, bnxt_re and irdma send and
 * receive RoCE in the NIC: their netdev sees none of it, which the capture
 * notes in w->bypass (docs/roce-facts.md, "The wire").
 */
#ifndef ROCECTL_CAPTURE_H
#define ROCECTL_CAPTURE_H

#include <signal.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/model.h"

/* The kernel filter of a live capture: RoCE v2, tagged or not, and ERSPAN. */
#define RCTL_CAPTURE_FILTER \
	"udp port 4791 or (vlan and udp port 4791) or ip proto gre or ip6 proto gre"
#define RCTL_CAPTURE_SECONDS_MAX 3600

struct rctl_capture_opts {
	const char *iface;		/* live on this netdev, or */
	const char *file;		/* this pcap or pcapng file */
	double seconds;			/* live: how long (> 0) */
	uint64_t count;			/* stop after this many frames; 0 no limit */
	uint32_t buffer_kib;		/* live: the kernel buffer, 0 libpcap's default */
	uint32_t flow_cap;		/* 0: RCTL_WIRE_MAX_FLOWS */
	volatile sig_atomic_t *stop;	/* set (by a signal) to end a live capture early */
};

/*
 * Capture or read into w (cleared first; h->wire of a host model): 0, or
 * -errno with e filled: -EPERM "cannot capture on 'veth0': ... (needs
 * CAP_NET_RAW)", -ENODEV, a file that is no capture, a link type not
 * decoded. "h" (may be NULL) is the inventory that tells a netdev whose RoCE
 * bypasses the kernel.
 */
int rctl_capture_run(const struct rctl_capture_opts *o, const struct rctl_host *h,
		     struct rctl_wire *w, struct rctl_err *e);

/* The RDMA device and family whose RoCE bypasses netdev "iface", or NULL. */
const struct rctl_device *rctl_capture_bypass(const struct rctl_host *h, const char *iface,
					      const char **family);

#endif
