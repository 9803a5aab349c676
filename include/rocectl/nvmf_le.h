/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Little-endian fields of the NVMe-oF wire formats (nvmf_wire.c, nvmf_tcp_wire.c). */
#ifndef ROCECTL_NVMF_LE_H
#define ROCECTL_NVMF_LE_H

#include <stdint.h>

static inline void rctl_le_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void rctl_le_put32(uint8_t *p, uint32_t v)
{
	rctl_le_put16(p, (uint16_t)v);
	rctl_le_put16(p + 2, (uint16_t)(v >> 16));
}

static inline void rctl_le_put64(uint8_t *p, uint64_t v)
{
	rctl_le_put32(p, (uint32_t)v);
	rctl_le_put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t rctl_le_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t rctl_le_get32(const uint8_t *p)
{
	return rctl_le_get16(p) | (uint32_t)rctl_le_get16(p + 2) << 16;
}

static inline uint64_t rctl_le_get64(const uint8_t *p)
{
	return rctl_le_get32(p) | (uint64_t)rctl_le_get32(p + 4) << 32;
}

#endif
