// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Capture through libpcap (include/rocectl/capture.h): a live capture of a
 * netdev, bounded in time, frames and memory, headers only (the snap length
 * is what the decoder needs: no payload is kept), with the kernel filter of
 * RCTL_CAPTURE_FILTER and the capture's own drops from pcap_stats(); or a
 * pcap/pcapng file (pcap_open_offline() reads both). Every frame goes
 * through lib/roce_wire.c and is dropped; only the flow table stays.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <pcap/pcap.h>

#include "rocectl/capture.h"
#include "rocectl/clock.h"
#include "rocectl/roce_wire.h"
#include "rocectl/settings.h"

#define SLICE_MS 100			/* the longest poll: --seconds and stop are kept */

const struct rctl_device *rctl_capture_bypass(const struct rctl_host *h, const char *iface,
					      const char **family)
{
	uint32_t i, k;

	for (i = 0; h && i < h->n_devs; i++)
		for (k = 0; k < h->devs[i].n_ports; k++) {
			const struct rctl_port *p = &h->devs[i].ports[k];
			const struct rctl_netdev *nd = rctl_host_netdev(h, p->netdev);
			enum rctl_family f;

			if (!nd || (strcmp(nd->name, iface) && !rctl_roce_netdev(h, nd, iface)))
				continue;
			f = rctl_family_of(&h->devs[i], nd);
			if (f == RCTL_FAM_RXE || f == RCTL_FAM_UNKNOWN)
				continue;
			*family = rctl_family_name(f);
			return &h->devs[i];
		}
	return NULL;
}

struct run {
	struct rctl_rw_table *t;
	enum rctl_rw_link link;
	uint64_t first_us, last_us;
	bool any;
	int err;
};

static void on_frame(u_char *user, const struct pcap_pkthdr *hdr, const u_char *bytes)
{
	struct run *r = (struct run *)user;
	uint64_t us = (uint64_t)hdr->ts.tv_sec * 1000000 + (uint64_t)hdr->ts.tv_usec;
	struct rctl_rw_pkt k;
	int ret;

	if (!r->any)
		r->first_us = us;
	r->any = true;
	r->last_us = us;
	ret = rctl_rw_decode(bytes, hdr->caplen, r->link, &k);
	if (ret)
		rctl_rw_table_skip(r->t, ret);
	else if (!r->err)
		r->err = rctl_rw_table_add(r->t, &k);
}

/* libpcap's link type as the decoder's; false for one it does not decode. */
static bool link_of(int dlt, enum rctl_rw_link *link)
{
	switch (dlt) {
	case DLT_EN10MB:
		*link = RCTL_RW_LINK_ETH;
		return true;
	case DLT_LINUX_SLL:
		*link = RCTL_RW_LINK_SLL;
		return true;
	case DLT_LINUX_SLL2:
		*link = RCTL_RW_LINK_SLL2;
		return true;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		*link = RCTL_RW_LINK_RAW;
		return true;
	}
	return false;
}

static int open_live(const struct rctl_capture_opts *o, pcap_t **pp, struct rctl_err *e)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p = pcap_create(o->iface, ebuf);
	int ret;

	if (!p)
		return rctl_err_plain(e, ENODEV, "cannot capture on '%s': %s", o->iface, ebuf);
	pcap_set_snaplen(p, RCTL_RW_SNAPLEN);
	pcap_set_promisc(p, 0);
	pcap_set_timeout(p, SLICE_MS);
	pcap_set_immediate_mode(p, 1);
	if (o->buffer_kib)
		pcap_set_buffer_size(p, (int)o->buffer_kib * 1024);
	ret = pcap_activate(p);
	if (ret < 0) {
		int err = ret == PCAP_ERROR_PERM_DENIED ? EPERM :
			  ret == PCAP_ERROR_NO_SUCH_DEVICE ? ENODEV : EIO;

		if (err == EPERM)
			rctl_err_plain(e, err, "cannot capture on '%s': permission denied "
				       "(a capture needs CAP_NET_RAW: run as root)", o->iface);
		else
			rctl_err_plain(e, err, "cannot capture on '%s': %s", o->iface,
				       pcap_geterr(p)[0] ? pcap_geterr(p) : pcap_statustostr(ret));
		pcap_close(p);
		return -err;
	}
	*pp = p;
	return 0;
}

static int set_filter(pcap_t *p, const char *iface, struct rctl_err *e)
{
	struct bpf_program prog;
	int ret;

	if (pcap_compile(p, &prog, RCTL_CAPTURE_FILTER, 1, PCAP_NETMASK_UNKNOWN))
		return rctl_err_plain(e, EINVAL, "cannot compile the capture filter of '%s': %s",
				      iface, pcap_geterr(p));
	ret = pcap_setfilter(p, &prog);
	pcap_freecode(&prog);
	if (ret)
		return rctl_err_plain(e, EIO, "cannot set the capture filter of '%s': %s", iface,
				      pcap_geterr(p));
	return pcap_setnonblock(p, 1, (char[PCAP_ERRBUF_SIZE]){ 0 }) ? -EIO : 0;
}

/* Frames until the time is up, the count reached or *stop set; each wait a slice. */
static int live_loop(pcap_t *p, const struct rctl_capture_opts *o, struct run *r,
		     struct rctl_err *e)
{
	uint64_t end = rctl_clock_ns() + (uint64_t)(o->seconds * 1e9), now;
	struct pollfd pfd = { .fd = pcap_get_selectable_fd(p), .events = POLLIN };
	int n, left;

	while ((now = rctl_clock_ns()) < end && !(o->stop && *o->stop) && !r->err) {
		if (o->count && r->t && rctl_rw_table_frames(r->t) >= o->count)
			break;
		left = (int)((end - now) / 1000000) + 1;
		if (poll(&pfd, 1, left < SLICE_MS ? left : SLICE_MS) < 0 && errno != EINTR)
			return rctl_err_strerror(e, errno, "cannot capture on '%s'", o->iface);
		n = pcap_dispatch(p, o->count ? (int)(o->count - rctl_rw_table_frames(r->t)) : -1,
				  on_frame, (u_char *)r);
		if (n == PCAP_ERROR)
			return rctl_err_plain(e, EIO, "cannot capture on '%s': %s", o->iface,
					      pcap_geterr(p));
	}
	return 0;
}

static int capture_live(const struct rctl_capture_opts *o, struct run *r, struct rctl_wire *w,
			struct rctl_err *e)
{
	uint64_t t0 = rctl_clock_ns();
	struct pcap_stat st;
	pcap_t *p = NULL;
	int ret;

	ret = open_live(o, &p, e);
	if (ret)
		return ret;
	if (!link_of(pcap_datalink(p), &r->link)) {
		ret = rctl_err_plain(e, EPROTONOSUPPORT, "cannot capture on '%s': link type %s is "
				     "not decoded (Ethernet, Linux cooked and raw IP are)", o->iface,
				     pcap_datalink_val_to_name(pcap_datalink(p)));
		goto out;
	}
	snprintf(w->link_type, sizeof(w->link_type), "%s",
		 pcap_datalink_val_to_name(pcap_datalink(p)));
	ret = set_filter(p, o->iface, e) ?: live_loop(p, o, r, e);
	w->seconds = (double)(rctl_clock_ns() - t0) / 1e9;
	if (!ret && !pcap_stats(p, &st)) {
		w->drops_known = true;
		w->drops = st.ps_drop;
		w->if_drops = st.ps_ifdrop;
	}
out:
	pcap_close(p);
	return ret;
}

static int capture_file(const struct rctl_capture_opts *o, struct run *r, struct rctl_wire *w,
			struct rctl_err *e)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p = pcap_open_offline(o->file, ebuf);
	int n, ret = 0;

	if (!p)
		return rctl_err_plain(e, EINVAL, "cannot read capture '%s': %s", o->file, ebuf);
	snprintf(w->link_type, sizeof(w->link_type), "%s",
		 pcap_datalink_val_to_name(pcap_datalink(p)) ?: "?");
	if (!link_of(pcap_datalink(p), &r->link)) {
		ret = rctl_err_plain(e, EPROTONOSUPPORT, "cannot read capture '%s': link type %s "
				     "is not decoded (Ethernet, Linux cooked and raw IP are)",
				     o->file, w->link_type);
		goto out;
	}
	n = pcap_dispatch(p, o->count ? (int)o->count : -1, on_frame, (u_char *)r);
	if (n == PCAP_ERROR)
		ret = rctl_err_plain(e, EIO, "cannot read capture '%s': %s", o->file, pcap_geterr(p));
	if (r->any)
		w->seconds = (double)(r->last_us - r->first_us) / 1e6;
out:
	pcap_close(p);
	return ret;
}

int rctl_capture_run(const struct rctl_capture_opts *o, const struct rctl_host *h,
		     struct rctl_wire *w, struct rctl_err *e)
{
	struct run r = { 0 };
	const char *fam = NULL;
	const struct rctl_device *d;
	int ret;

	rctl_wire_clear(w);
	memset(w, 0, sizeof(*w));
	r.t = rctl_rw_table_new(o->flow_cap);
	if (!r.t)
		return rctl_err_strerror(e, ENOMEM, "cannot capture");
	snprintf(w->source, sizeof(w->source), "%s", o->file ? "file" : "live");
	if (o->file) {
		snprintf(w->file, sizeof(w->file), "%s", o->file);
		ret = capture_file(o, &r, w, e);
	} else {
		snprintf(w->iface, sizeof(w->iface), "%s", o->iface);
		d = rctl_capture_bypass(h, o->iface, &fam);
		if (d) {
			snprintf(w->bypass, sizeof(w->bypass), "%s", fam);
			snprintf(w->bypass_dev, sizeof(w->bypass_dev), "%s", d->name);
		}
		ret = capture_live(o, &r, w, e);
	}
	if (!ret && r.err)
		ret = rctl_err_strerror(e, -r.err, "cannot capture");
	if (!ret && rctl_rw_table_summary(r.t, w))
		ret = rctl_err_strerror(e, ENOMEM, "cannot capture");
	rctl_rw_table_free(r.t);
	if (!ret)
		w->st.ok = true;
	return ret;
}
