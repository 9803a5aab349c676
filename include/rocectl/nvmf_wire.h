/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NVMe over Fabrics (RDMA transport) wire formats: pure encoders and decoders
 * of the 64-byte SQE, SGL descriptors, the 16-byte CQE, Fabrics Connect and
 * Property commands, Identify pages, the discovery log page and the RDMA CM
 * private data. All multi-byte fields are little-endian on the wire; these
 * functions touch only the buffers they are given.
 */
#ifndef ROCECTL_NVMF_WIRE_H
#define ROCECTL_NVMF_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RCTL_NVME_SQE_SIZE 64
#define RCTL_NVME_CQE_SIZE 16
#define RCTL_NVMF_CONNECT_DATA_SIZE 1024
#define RCTL_NVME_IDENTIFY_SIZE 4096
#define RCTL_NVMF_DISC_ENTRY_SIZE 1024
#define RCTL_NVMF_CM_PRIV_SIZE 32
#define RCTL_NVMF_NQN_MAX 223
#define RCTL_NVMF_DISC_NQN "nqn.2014-08.org.nvmexpress.discovery"
#define RCTL_NVMF_PORT 4420
#define RCTL_NVME_AQ_DEPTH 32

enum rctl_nvme_opc {
	RCTL_NVME_OPC_WRITE = 0x01,		/* I/O */
	RCTL_NVME_OPC_READ = 0x02,		/* I/O */
	RCTL_NVME_OPC_GET_LOG_PAGE = 0x02,	/* admin */
	RCTL_NVME_OPC_IDENTIFY = 0x06,
	RCTL_NVME_OPC_SET_FEATURES = 0x09,
	RCTL_NVME_OPC_KEEP_ALIVE = 0x18,
	RCTL_NVME_OPC_FABRICS = 0x7f,
};

enum rctl_nvmf_fctype {
	RCTL_NVMF_PROP_SET = 0x00,
	RCTL_NVMF_CONNECT = 0x01,
	RCTL_NVMF_PROP_GET = 0x04,
};

enum rctl_nvme_reg {
	RCTL_NVME_REG_CAP = 0x00,
	RCTL_NVME_REG_VS = 0x08,
	RCTL_NVME_REG_CC = 0x14,
	RCTL_NVME_REG_CSTS = 0x1c,
};

/* CAP fields */
#define RCTL_NVME_CAP_MQES(cap) ((uint32_t)((cap) & 0xffff))	/* 0's based */
#define RCTL_NVME_CAP_TO(cap) ((uint32_t)(((cap) >> 24) & 0xff))	/* x 500 ms */
#define RCTL_NVME_CAP_MPSMIN(cap) ((uint32_t)(((cap) >> 48) & 0xf))
/* CSTS fields */
#define RCTL_NVME_CSTS_RDY 0x1u
#define RCTL_NVME_CSTS_CFS 0x2u
#define RCTL_NVME_CSTS_SHST(csts) (((csts) >> 2) & 0x3u)	/* 2 = complete */
/* SGLS bits of Identify Controller */
#define RCTL_NVME_SGLS_KEYED (1u << 2)
#define RCTL_NVME_SGLS_SAOS (1u << 20)

/* CC: EN, CSS, MPS 0 (4 KiB), AMS 0, SHN, IOSQES 6 (64 B), IOCQES 4 (16 B). */
uint32_t rctl_nvme_cc(bool en, unsigned int css, unsigned int shn);

/*
 * SGL descriptor in DPTR. KEYED with len 0, addr 0, key 0 is the null SGL.
 * TRANSPORT (type 5, subtype 0xA, NVMe/TCP): data moved by the transport's
 * own PDUs (C2HData, R2T/H2CData), only its length given.
 */
enum rctl_sgl_kind { RCTL_SGL_KEYED, RCTL_SGL_OFFSET, RCTL_SGL_TRANSPORT };

struct rctl_sgl {
	enum rctl_sgl_kind kind;
	uint64_t addr;		/* keyed: host address; offset: in-capsule offset; transport: 0 */
	uint32_t len;		/* keyed: 24 bits */
	uint32_t key;		/* keyed: rkey */
};

void rctl_sgl_encode(uint8_t d[16], const struct rctl_sgl *s);

/*
 * A command in host order. cdw[10..15] land at bytes 40..63; Fabrics fields
 * overlay them (Connect: cdw10 = RECFMT | QID << 16, cdw11 = SQSIZE | CATTR
 * << 16, cdw12 = KATO). For opcode 0x7F byte 4 is FCTYPE, otherwise NSID.
 */
struct rctl_nvme_cmd {
	uint8_t opc;
	uint8_t fctype;
	uint16_t cid;
	uint32_t nsid;
	struct rctl_sgl sgl;
	uint32_t cdw[16];
};

/* FLAGS is always 0x40 (PSDT 01b: SGL, MPTR single buffer), as nvmet requires. */
void rctl_nvme_sqe_encode(uint8_t sqe[RCTL_NVME_SQE_SIZE],
			  const struct rctl_nvme_cmd *c);

/* Command builders: fill everything but CID and the data SGL. */
void rctl_nvmf_connect_cmd(struct rctl_nvme_cmd *c, uint16_t qid,
			   uint16_t sqsize, uint32_t kato_ms);
void rctl_nvmf_prop_get_cmd(struct rctl_nvme_cmd *c, uint32_t ofst, bool eight);
void rctl_nvmf_prop_set_cmd(struct rctl_nvme_cmd *c, uint32_t ofst, uint32_t v);
void rctl_nvme_identify_cmd(struct rctl_nvme_cmd *c, uint8_t cns, uint32_t nsid);
/* Number of Queues, counts 1's based here (encoded 0's based). */
void rctl_nvme_set_nq_cmd(struct rctl_nvme_cmd *c, uint16_t nsq, uint16_t ncq);
void rctl_nvme_get_log_cmd(struct rctl_nvme_cmd *c, uint8_t lid, uint32_t len,
			   uint64_t offset);
void rctl_nvme_keep_alive_cmd(struct rctl_nvme_cmd *c);
/* Read or Write of nlb blocks (1's based here) at slba. */
void rctl_nvme_rw_cmd(struct rctl_nvme_cmd *c, bool write, uint32_t nsid,
		      uint64_t slba, uint32_t nlb);

/* Connect data; -EINVAL when an NQN is empty or longer than 223 bytes. */
int rctl_nvmf_connect_data(uint8_t d[RCTL_NVMF_CONNECT_DATA_SIZE],
			   const uint8_t hostid[16], uint16_t cntlid,
			   const char *subnqn, const char *hostnqn);

/* CQE; status is the 15-bit field without the phase bit. */
struct rctl_nvme_cqe {
	uint32_t dw0, dw1;
	uint16_t sqhd, sqid, cid;
	uint16_t status;
};

void rctl_nvme_cqe_decode(const uint8_t b[RCTL_NVME_CQE_SIZE],
			  struct rctl_nvme_cqe *c);
void rctl_nvme_cqe_encode(uint8_t b[RCTL_NVME_CQE_SIZE],
			  const struct rctl_nvme_cqe *c);

#define RCTL_NVME_SC(st) ((st) & 0xff)
#define RCTL_NVME_SCT(st) (((st) >> 8) & 0x7)
#define RCTL_NVME_DNR(st) (((st) >> 14) & 0x1)

/* "invalid field", "connect invalid parameters"; NULL when unknown. */
const char *rctl_nvme_status_name(uint16_t status);

/*
 * One readable phrase for a failed status: name, codes and, for Connect
 * Invalid Parameters, where IPO/IATTR (dw0) point:
 * "connect invalid parameters (sct 0x1 sc 0x82 dnr; connect data byte 256: subnqn)".
 */
void rctl_nvme_status_str(char *buf, size_t len, uint16_t status,
			  uint32_t dw0, bool connect);

/* Connect Invalid Parameters: the IPO and whether it points in the data. */
void rctl_nvmf_connect_ipo(uint32_t dw0, bool *in_data, uint16_t *ipo);

/* RDMA CM private data (nvme-rdma.h). */
void rctl_nvmf_cm_req(uint8_t pd[RCTL_NVMF_CM_PRIV_SIZE], uint16_t qid,
		      uint16_t hrqsize, uint16_t hsqsize, uint16_t cntlid);
/* -EINVAL when too short or recfmt != 0. */
int rctl_nvmf_cm_rep(const void *pd, size_t len, uint16_t *crqsize);
int rctl_nvmf_cm_rej(const void *pd, size_t len, uint16_t *sts);
/* "invalid host SQ size"; NULL when unknown. */
const char *rctl_nvmf_rej_name(uint16_t sts);

struct rctl_nvme_id_ctrl {
	uint8_t mdts;
	uint16_t cntlid;
	uint32_t ver;
	uint32_t ctratt;
	uint8_t cntrltype;
	uint16_t kas;
	uint8_t sqes, cqes;
	uint16_t maxcmd;
	uint32_t nn;
	uint32_t sgls;
	char subnqn[257];
	uint32_t ioccsz, iorcsz;
	uint16_t icdoff;
	uint8_t fcatt, msdbd;
};

void rctl_nvme_id_ctrl_decode(const uint8_t p[RCTL_NVME_IDENTIFY_SIZE],
			      struct rctl_nvme_id_ctrl *c);

struct rctl_nvme_id_ns {
	uint64_t nsze, ncap, nuse;
	uint8_t nlbaf, flbas;
	uint8_t lbads;		/* of the format in use: log2(block size) */
	uint16_t ms;
};

void rctl_nvme_id_ns_decode(const uint8_t p[RCTL_NVME_IDENTIFY_SIZE],
			    struct rctl_nvme_id_ns *ns);

/*
 * Limits from target-supplied fields, range-checked before any shift:
 * the block size of LBADS (0 when outside 9..16, NVMe requires >= 9 and
 * rocectl's I/O buffers stop at 64 KiB blocks); the largest transfer of
 * MDTS in units of the 4 KiB minimum page (UINT64_MAX for 0 = no limit, and
 * for MDTS >= 52, whose byte count does not fit 64 bits); the largest
 * in-capsule write of IOCCSZ (16-byte units, the 64-byte SQE included:
 * 0 when none fits), computed in 64 bits and capped to u32.
 */
uint32_t rctl_nvme_block_size(uint8_t lbads);
uint64_t rctl_nvme_mdts_bytes(uint8_t mdts);
uint32_t rctl_nvme_inline_max(uint32_t ioccsz);
/* CAP.TO ((cap >> 24) & 0xff, 500 ms units) in ms, at most bound_ms if > 0. */
uint64_t rctl_nvme_ready_ms(uint64_t cap, uint64_t bound_ms);

/* Active NS list: copies up to max NSIDs before the first zero; returns the count. */
uint32_t rctl_nvme_ns_list_decode(const uint8_t p[RCTL_NVME_IDENTIFY_SIZE],
				  uint32_t *ids, uint32_t max);

/*
 * Set Features Number of Queues result: allocated counts, 1's based (up to
 * 65536: NSQA 0xffff + 1 does not fit 16 bits).
 */
void rctl_nvme_nq_decode(uint32_t dw0, uint32_t *nsq, uint32_t *ncq);
/*
 * The I/O queues to use of "want" asked for: as many as both counts allow,
 * never more than asked (a target may allocate more: NVMe Base Specification,
 * Number of Queues, Feature ID 07h), at least 1; as nvme_set_queue_count()
 * of drivers/nvme/host/core.c.
 */
uint16_t rctl_nvme_nq_granted(uint32_t dw0, uint16_t want);

/* Discovery log page (LID 0x70). */
#define RCTL_NVME_LOG_DISC 0x70

struct rctl_nvmf_disc_hdr {
	uint64_t genctr, numrec;
	uint16_t recfmt;
};

struct rctl_nvmf_disc_entry {
	uint8_t trtype, adrfam, subtype, treq;
	uint16_t portid, cntlid, asqsz;
	char trsvcid[33];
	char subnqn[257];
	char traddr[257];
	uint8_t qptype, prtype, cms;
	uint16_t pkey;
};

void rctl_nvmf_disc_hdr_decode(const uint8_t p[1024], struct rctl_nvmf_disc_hdr *h);
void rctl_nvmf_disc_entry_decode(const uint8_t p[RCTL_NVMF_DISC_ENTRY_SIZE],
				 struct rctl_nvmf_disc_entry *d);
/* "rdma", "ipv4", "nvm" ...; "unknown" otherwise. */
const char *rctl_nvmf_trtype_name(uint8_t v);
const char *rctl_nvmf_adrfam_name(uint8_t v);
const char *rctl_nvmf_subtype_name(uint8_t v);

/*
 * CID = generation << bits | slot, bits = rctl_nvme_cid_bits(slots): only as
 * many as the queue's slots need, the generation the rest (11 bits with 32
 * slots, 6 with 1024, 4 with 4096, the most a queue has). A completion for a
 * slot's earlier command (a duplicate, or one answered late) matches its
 * current command only after 2^(16 - bits) reuses of the slot, not 16.
 */
static inline unsigned int rctl_nvme_cid_bits(uint32_t slots)
{
	unsigned int b = 1;

	while (b < 12 && (1u << b) < slots)
		b++;
	return b;
}

static inline uint16_t rctl_nvme_cid(uint16_t slot, uint16_t gen, unsigned int bits)
{
	return (uint16_t)((unsigned int)gen << bits | (slot & ((1u << bits) - 1)));
}

static inline uint16_t rctl_nvme_cid_slot(uint16_t cid, unsigned int bits)
{
	return cid & ((1u << bits) - 1);
}

static inline uint16_t rctl_nvme_cid_gen(uint16_t cid, unsigned int bits)
{
	return (uint16_t)(cid >> bits);
}

/* The generation after gen, within the 16 - bits it has. */
static inline uint16_t rctl_nvme_gen_next(uint16_t gen, unsigned int bits)
{
	return (uint16_t)((gen + 1u) & ((1u << (16 - bits)) - 1));
}

/*
 * A received capsule as a CQE: -EPROTO when the SEND carried fewer than
 * RCTL_NVME_CQE_SIZE bytes (the buffer would hold an earlier CQE's bytes).
 */
int rctl_nvme_cqe_recv(const uint8_t *buf, uint32_t byte_len, struct rctl_nvme_cqe *c);

/*
 * The whole discovery log, read in pages of at most page_max bytes (whole
 * records) through read(off, len) and read again while its genctr changes
 * (at most RCTL_NVMF_DISC_RETRIES times, as nvme-cli does); more than
 * RCTL_NVMF_DISC_MAX records is refused, never cut. *ents is malloc'd.
 */
#define RCTL_NVMF_DISC_RETRIES 10
#define RCTL_NVMF_DISC_MAX 16384
struct rctl_err;
typedef int (*rctl_nvmf_log_read)(void *ctx, uint64_t off, uint32_t len,
				  const uint8_t **page, struct rctl_err *e);
int rctl_nvmf_disc_read(rctl_nvmf_log_read read, void *ctx, uint32_t page_max,
			struct rctl_nvmf_disc_entry **ents, uint32_t *n, struct rctl_err *e);

#endif
