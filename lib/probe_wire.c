// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reach/serve handshake: encoders and bounds-checked decoders (layout in
 * include/rocectl/probe_wire.h). Pure code: no verbs, no allocation.
 */
#include <errno.h>
#include <string.h>

#include "rocectl/probe_wire.h"

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, (uint32_t)v);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

/* The head both messages share: zeroes, the magic, the version and one byte (mode, status). */
static void put_head(uint8_t *buf, size_t len, uint8_t version, uint8_t kind)
{
	memset(buf, 0, len);
	memcpy(buf, RCTL_PROBE_MAGIC, 4);
	buf[4] = version;
	buf[5] = kind;
}

size_t rctl_hello_encode(const struct rctl_hello *h, uint8_t *buf)
{
	size_t n = h->flags & RCTL_HELLO_F_TOKEN ? RCTL_HELLO_TOKEN_LEN : RCTL_HELLO_LEN;

	put_head(buf, n, h->version, h->mode);
	buf[6] = h->flags;
	put32(buf + 8, h->size);
	put32(buf + 12, h->depth);
	put64(buf + 16, h->addr);
	put32(buf + 24, h->rkey);
	if (n == RCTL_HELLO_TOKEN_LEN)
		memcpy(buf + RCTL_HELLO_LEN, h->token, RCTL_TOKEN_LEN);
	return n;
}

enum rctl_probe_status rctl_hello_decode(const void *buf, size_t len,
					 struct rctl_hello *h)
{
	const uint8_t *p = buf;

	memset(h, 0, sizeof(*h));
	if (!p || len < RCTL_HELLO_LEN || memcmp(p, RCTL_PROBE_MAGIC, 4))
		return RCTL_PROBE_BAD_REQUEST;
	h->version = p[4];
	if (h->version < RCTL_PROBE_MIN_VERSION || h->version > RCTL_PROBE_VERSION)
		return RCTL_PROBE_VERSION_MISMATCH;
	h->mode = p[5];
	h->flags = p[6];
	h->size = get32(p + 8);
	h->depth = get32(p + 12);
	h->addr = get64(p + 16);
	h->rkey = get32(p + 24);
	if (!h->size || h->size > RCTL_PROBE_MAX_SIZE || !h->depth ||
	    h->depth > RCTL_PROBE_MAX_DEPTH ||
	    (h->mode != RCTL_MODE_ECHO && h->mode != RCTL_MODE_SINK &&
	     h->mode != RCTL_MODE_POLL))
		return RCTL_PROBE_BAD_REQUEST;
	if (h->flags & RCTL_HELLO_F_TOKEN) {
		if (len < RCTL_HELLO_TOKEN_LEN || !p[RCTL_HELLO_LEN])
			return RCTL_PROBE_BAD_REQUEST;
		memcpy(h->token, p + RCTL_HELLO_LEN, RCTL_TOKEN_LEN);
	}
	return RCTL_PROBE_OK;
}

size_t rctl_welcome_encode(const struct rctl_welcome *w, uint8_t *buf)
{
	size_t n = w->version >= 2 ? RCTL_WELCOME_LEN : RCTL_WELCOME_V1_LEN;

	put_head(buf, n, w->version, w->status);
	buf[6] = w->flags;
	put64(buf + 8, w->addr);
	put32(buf + 16, w->rkey);
	put32(buf + 20, w->size);
	put32(buf + 24, w->lifetime_s);
	if (n == RCTL_WELCOME_LEN) {
		put32(buf + 32, w->active_mtu);
		put32(buf + 36, w->netdev_mtu);
		memcpy(buf + 40, w->netdev, strnlen(w->netdev, RCTL_WIRE_IFNAME - 1));
	}
	return n;
}

/* A peer's interface name: at most 15 printable bytes, the rest dropped. */
static void take_name(char *dst, const uint8_t *src)
{
	size_t i;

	for (i = 0; i < RCTL_WIRE_IFNAME - 1 && src[i]; i++)
		dst[i] = src[i] > 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
	dst[i] = '\0';
}

int rctl_welcome_decode(const void *buf, size_t len, struct rctl_welcome *w)
{
	const uint8_t *p = buf;

	memset(w, 0, sizeof(*w));
	if (!p || len < RCTL_WELCOME_V1_LEN || memcmp(p, RCTL_PROBE_MAGIC, 4))
		return -EPROTO;
	w->version = p[4];
	w->status = p[5];
	w->flags = p[6];
	w->addr = get64(p + 8);
	w->rkey = get32(p + 16);
	w->size = get32(p + 20);
	w->lifetime_s = get32(p + 24);
	if (w->version < 2)
		return 0;
	if (len < RCTL_WELCOME_LEN)
		return w->status == RCTL_PROBE_OK ? -EBADMSG : 0;
	w->has_mtu = true;
	w->active_mtu = get32(p + 32);
	w->netdev_mtu = get32(p + 36);
	take_name(w->netdev, p + 40);
	return 0;
}

size_t rctl_ready_encode(const struct rctl_ready *r, uint8_t *buf)
{
	put_head(buf, RCTL_READY_LEN, RCTL_MSG_READY, 0);
	put64(buf + 8, r->addr);
	put32(buf + 16, r->rkey);
	put32(buf + 20, r->size);
	return RCTL_READY_LEN;
}

int rctl_ready_decode(const void *buf, size_t len, struct rctl_ready *r)
{
	const uint8_t *p = buf;

	memset(r, 0, sizeof(*r));
	if (!p || len < RCTL_READY_LEN || memcmp(p, RCTL_PROBE_MAGIC, 4) ||
	    p[4] != RCTL_MSG_READY)
		return -EPROTO;
	r->addr = get64(p + 8);
	r->rkey = get32(p + 16);
	r->size = get32(p + 20);
	return !r->size || r->size > RCTL_PROBE_MAX_SIZE ? -EBADMSG : 0;
}
