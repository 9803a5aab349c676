// SPDX-License-Identifier: GPL-2.0-or-later
/* The reach/serve handshake decoders (probe_wire.h): peer bytes, checked. */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include <arpa/inet.h>

#include "rocectl/probe_wire.h"

uint8_t rctl_hello_decode(const void *pd, size_t len, struct rctl_hello *h)
{
	memset(h, 0, sizeof(*h));
	if (!pd || len < sizeof(*h))
		return RCTL_PROBE_BAD_REQUEST;
	memcpy(h, pd, sizeof(*h));
	if (memcmp(h->magic, RCTL_PROBE_MAGIC, 4))
		return RCTL_PROBE_BAD_REQUEST;
	if (h->version != RCTL_PROBE_VERSION)
		return RCTL_PROBE_VERSION_MISMATCH;
	h->size = ntohl(h->size);
	h->depth = ntohl(h->depth);
	h->addr = be64toh(h->addr);
	h->rkey = ntohl(h->rkey);
	if (!h->size || h->size > RCTL_PROBE_MAX_SIZE || !h->depth ||
	    h->depth > RCTL_PROBE_MAX_DEPTH ||
	    (h->mode != RCTL_MODE_ECHO && h->mode != RCTL_MODE_SINK &&
	     h->mode != RCTL_MODE_POLL))
		return RCTL_PROBE_BAD_REQUEST;
	return RCTL_PROBE_OK;
}

int rctl_welcome_decode(const void *pd, size_t len, struct rctl_welcome *w)
{
	memset(w, 0, sizeof(*w));
	if (!pd || len < sizeof(*w))
		return -EPROTO;
	memcpy(w, pd, sizeof(*w));
	if (memcmp(w->magic, RCTL_PROBE_MAGIC, 4))
		return -EPROTO;
	if (w->version != RCTL_PROBE_VERSION)
		return -EPROTONOSUPPORT;
	w->addr = be64toh(w->addr);
	w->rkey = ntohl(w->rkey);
	w->size = ntohl(w->size);
	w->lifetime_s = ntohl(w->lifetime_s);
	return 0;
}
