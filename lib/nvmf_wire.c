// SPDX-License-Identifier: GPL-2.0-or-later
/* NVMe-oF RDMA wire encoders and decoders (see include/rocectl/nvmf_wire.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/err.h"
#include "rocectl/nvmf_le.h"
#include "rocectl/nvmf_wire.h"

/* A fixed-size, possibly unterminated, space- or NUL-padded string field. */
static void get_str(char *dst, size_t dstlen, const uint8_t *p, size_t n)
{
	size_t len = 0;

	while (len < n && len + 1 < dstlen && p[len])
		len++;
	memcpy(dst, p, len);
	while (len && dst[len - 1] == ' ')
		len--;
	dst[len] = '\0';
}

/* ---- SQE, SGL, CQE --------------------------------------------------- */

uint32_t rctl_nvme_cc(bool en, unsigned int css, unsigned int shn)
{
	return (en ? 1u : 0u) | (css & 0x7) << 4 | (shn & 0x3) << 14 |
	       6u << 16 | 4u << 20;
}

void rctl_sgl_encode(uint8_t d[16], const struct rctl_sgl *s)
{
	memset(d, 0, 16);
	rctl_le_put64(d, s->addr);
	if (s->kind == RCTL_SGL_OFFSET) {
		rctl_le_put32(d + 8, s->len);
		d[15] = 0x01;		/* data block, subtype offset */
		return;
	}
	if (s->kind == RCTL_SGL_TRANSPORT) {
		rctl_le_put32(d + 8, s->len);
		d[15] = 0x5a;		/* transport data block, transport-specific subtype */
		return;
	}
	d[8] = (uint8_t)s->len;
	d[9] = (uint8_t)(s->len >> 8);
	d[10] = (uint8_t)(s->len >> 16);
	rctl_le_put32(d + 11, s->key);
	d[15] = 0x40;			/* keyed data block, subtype address */
}

void rctl_nvme_sqe_encode(uint8_t sqe[RCTL_NVME_SQE_SIZE],
			  const struct rctl_nvme_cmd *c)
{
	int i;

	memset(sqe, 0, RCTL_NVME_SQE_SIZE);
	sqe[0] = c->opc;
	sqe[1] = 0x40;
	rctl_le_put16(sqe + 2, c->cid);
	if (c->opc == RCTL_NVME_OPC_FABRICS)
		sqe[4] = c->fctype;
	else
		rctl_le_put32(sqe + 4, c->nsid);
	rctl_sgl_encode(sqe + 24, &c->sgl);
	for (i = 10; i < 16; i++)
		rctl_le_put32(sqe + 4 * i, c->cdw[i]);
}

static void cmd_init(struct rctl_nvme_cmd *c, uint8_t opc, uint8_t fctype)
{
	memset(c, 0, sizeof(*c));
	c->opc = opc;
	c->fctype = fctype;
}

void rctl_nvmf_connect_cmd(struct rctl_nvme_cmd *c, uint16_t qid,
			   uint16_t sqsize, uint32_t kato_ms)
{
	cmd_init(c, RCTL_NVME_OPC_FABRICS, RCTL_NVMF_CONNECT);
	c->cdw[10] = (uint32_t)qid << 16;	/* RECFMT 0 */
	c->cdw[11] = sqsize;			/* CATTR 0: SQ flow control on */
	c->cdw[12] = kato_ms;
}

void rctl_nvmf_prop_get_cmd(struct rctl_nvme_cmd *c, uint32_t ofst, bool eight)
{
	cmd_init(c, RCTL_NVME_OPC_FABRICS, RCTL_NVMF_PROP_GET);
	c->cdw[10] = eight ? 1 : 0;
	c->cdw[11] = ofst;
}

void rctl_nvmf_prop_set_cmd(struct rctl_nvme_cmd *c, uint32_t ofst, uint32_t v)
{
	cmd_init(c, RCTL_NVME_OPC_FABRICS, RCTL_NVMF_PROP_SET);
	c->cdw[11] = ofst;
	c->cdw[12] = v;
}

void rctl_nvme_identify_cmd(struct rctl_nvme_cmd *c, uint8_t cns, uint32_t nsid)
{
	cmd_init(c, RCTL_NVME_OPC_IDENTIFY, 0);
	c->nsid = nsid;
	c->cdw[10] = cns;
}

void rctl_nvme_set_nq_cmd(struct rctl_nvme_cmd *c, uint16_t nsq, uint16_t ncq)
{
	cmd_init(c, RCTL_NVME_OPC_SET_FEATURES, 0);
	c->cdw[10] = 0x07;
	c->cdw[11] = (uint32_t)(uint16_t)(ncq - 1) << 16 | (uint16_t)(nsq - 1);
}

void rctl_nvme_get_log_cmd(struct rctl_nvme_cmd *c, uint8_t lid, uint32_t len,
			   uint64_t offset)
{
	uint32_t numd = len / 4 - 1;

	cmd_init(c, RCTL_NVME_OPC_GET_LOG_PAGE, 0);
	c->cdw[10] = lid | (numd & 0xffff) << 16;
	c->cdw[11] = numd >> 16;
	c->cdw[12] = (uint32_t)offset;
	c->cdw[13] = (uint32_t)(offset >> 32);
}

void rctl_nvme_keep_alive_cmd(struct rctl_nvme_cmd *c)
{
	cmd_init(c, RCTL_NVME_OPC_KEEP_ALIVE, 0);
}

void rctl_nvme_rw_cmd(struct rctl_nvme_cmd *c, bool write, uint32_t nsid,
		      uint64_t slba, uint32_t nlb)
{
	cmd_init(c, write ? RCTL_NVME_OPC_WRITE : RCTL_NVME_OPC_READ, 0);
	c->nsid = nsid;
	c->cdw[10] = (uint32_t)slba;
	c->cdw[11] = (uint32_t)(slba >> 32);
	c->cdw[12] = (nlb - 1) & 0xffff;
}

int rctl_nvmf_connect_data(uint8_t d[RCTL_NVMF_CONNECT_DATA_SIZE],
			   const uint8_t hostid[16], uint16_t cntlid,
			   const char *subnqn, const char *hostnqn)
{
	size_t sl = strlen(subnqn), hl = strlen(hostnqn);

	if (!sl || sl > RCTL_NVMF_NQN_MAX || !hl || hl > RCTL_NVMF_NQN_MAX)
		return -EINVAL;
	memset(d, 0, RCTL_NVMF_CONNECT_DATA_SIZE);
	memcpy(d, hostid, 16);
	rctl_le_put16(d + 16, cntlid);
	memcpy(d + 256, subnqn, sl);
	memcpy(d + 512, hostnqn, hl);
	return 0;
}

void rctl_nvme_cqe_decode(const uint8_t b[RCTL_NVME_CQE_SIZE],
			  struct rctl_nvme_cqe *c)
{
	c->dw0 = rctl_le_get32(b);
	c->dw1 = rctl_le_get32(b + 4);
	c->sqhd = rctl_le_get16(b + 8);
	c->sqid = rctl_le_get16(b + 10);
	c->cid = rctl_le_get16(b + 12);
	c->status = rctl_le_get16(b + 14) >> 1;
}

int rctl_nvme_cqe_recv(const uint8_t *buf, uint32_t byte_len, struct rctl_nvme_cqe *c)
{
	memset(c, 0, sizeof(*c));
	if (byte_len < RCTL_NVME_CQE_SIZE)
		return -EPROTO;
	rctl_nvme_cqe_decode(buf, c);
	return 0;
}

void rctl_nvme_cqe_encode(uint8_t b[RCTL_NVME_CQE_SIZE],
			  const struct rctl_nvme_cqe *c)
{
	rctl_le_put32(b, c->dw0);
	rctl_le_put32(b + 4, c->dw1);
	rctl_le_put16(b + 8, c->sqhd);
	rctl_le_put16(b + 10, c->sqid);
	rctl_le_put16(b + 12, c->cid);
	rctl_le_put16(b + 14, (uint16_t)(c->status << 1));
}

/* ---- status names ---------------------------------------------------- */

struct code_name {
	uint16_t code;
	const char *name;
};

static const struct code_name status_names[] = {
	{ 0x000, "success" },
	{ 0x001, "invalid command opcode" },
	{ 0x002, "invalid field in command" },
	{ 0x003, "command id conflict" },
	{ 0x004, "data transfer error" },
	{ 0x006, "internal error" },
	{ 0x007, "command abort requested" },
	{ 0x008, "command aborted: sq deleted" },
	{ 0x00b, "invalid namespace or format" },
	{ 0x00c, "command sequence error" },
	{ 0x00d, "invalid sgl segment descriptor" },
	{ 0x00e, "invalid number of sgl descriptors" },
	{ 0x00f, "data sgl length invalid" },
	{ 0x010, "metadata sgl length invalid" },
	{ 0x011, "sgl descriptor type invalid" },
	{ 0x016, "sgl offset invalid" },
	{ 0x080, "lba out of range" },
	{ 0x081, "capacity exceeded" },
	{ 0x082, "namespace not ready" },
	{ 0x180, "incompatible format" },
	{ 0x181, "controller busy" },
	{ 0x182, "connect invalid parameters" },
	{ 0x183, "restart discovery" },
	{ 0x184, "invalid host" },
	{ 0x190, "log restart discovery" },
	{ 0x191, "authentication required" },
	{ 0x280, "write fault" },
	{ 0x281, "unrecovered read error" },
	{ 0x285, "compare failure" },
	{ 0x286, "access denied" },
};

static const char *code_lookup(const struct code_name *t, size_t n, uint16_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].code == v)
			return t[i].name;
	return NULL;
}

const char *rctl_nvme_status_name(uint16_t status)
{
	return code_lookup(status_names, sizeof(status_names) / sizeof(status_names[0]),
			   status & 0x7ff);
}

void rctl_nvmf_connect_ipo(uint32_t dw0, bool *in_data, uint16_t *ipo)
{
	*ipo = (uint16_t)dw0;
	*in_data = dw0 >> 16 & 1;
}

static const struct code_name connect_data_fields[] = {
	{ 0, "hostid" }, { 16, "cntlid" }, { 256, "subnqn" }, { 512, "hostnqn" },
};

static const struct code_name connect_sqe_fields[] = {
	{ 24, "sgl" }, { 40, "recfmt" }, { 42, "qid" }, { 44, "sqsize" },
	{ 46, "cattr" }, { 48, "kato" },
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

void rctl_nvme_status_str(char *buf, size_t len, uint16_t status,
			  uint32_t dw0, bool connect)
{
	const char *name = rctl_nvme_status_name(status), *field;
	uint16_t ipo;
	bool in_data;
	int n;

	n = snprintf(buf, len, "%s (sct %#x sc %#x%s", name ? name : "unknown status",
		     RCTL_NVME_SCT(status), RCTL_NVME_SC(status),
		     RCTL_NVME_DNR(status) ? " dnr" : "");
	if (n < 0 || (size_t)n >= len)
		return;
	if (connect && (status & 0x7ff) == 0x182) {
		rctl_nvmf_connect_ipo(dw0, &in_data, &ipo);
		field = in_data ? code_lookup(connect_data_fields, N_OF(connect_data_fields), ipo)
				: code_lookup(connect_sqe_fields, N_OF(connect_sqe_fields), ipo);
		n += snprintf(buf + n, len - n, "; %s byte %u%s%s",
			      in_data ? "connect data" : "command", ipo,
			      field ? ": " : "", field ? field : "");
		if ((size_t)n >= len)
			return;
	}
	snprintf(buf + n, len - n, ")");
}

/* ---- RDMA CM private data -------------------------------------------- */

void rctl_nvmf_cm_req(uint8_t pd[RCTL_NVMF_CM_PRIV_SIZE], uint16_t qid,
		      uint16_t hrqsize, uint16_t hsqsize, uint16_t cntlid)
{
	memset(pd, 0, RCTL_NVMF_CM_PRIV_SIZE);
	rctl_le_put16(pd + 2, qid);
	rctl_le_put16(pd + 4, hrqsize);
	rctl_le_put16(pd + 6, hsqsize);
	rctl_le_put16(pd + 8, cntlid);
}

int rctl_nvmf_cm_rep(const void *pd, size_t len, uint16_t *crqsize)
{
	const uint8_t *p = pd;

	if (!p || len < 4 || rctl_le_get16(p) != 0)
		return -EINVAL;
	*crqsize = rctl_le_get16(p + 2);
	return 0;
}

int rctl_nvmf_cm_rej(const void *pd, size_t len, uint16_t *sts)
{
	const uint8_t *p = pd;

	if (!p || len < 4 || rctl_le_get16(p) != 0)
		return -EINVAL;
	*sts = rctl_le_get16(p + 2);
	return 0;
}

static const struct code_name rej_names[] = {
	{ 0x01, "invalid length" },
	{ 0x02, "invalid record format" },
	{ 0x03, "invalid queue ID" },
	{ 0x04, "invalid host SQ size" },
	{ 0x05, "invalid host RQ size" },
	{ 0x06, "resource not found" },
	{ 0x07, "invalid IRD" },
	{ 0x08, "invalid ORD" },
	{ 0x09, "invalid controller ID" },
};

const char *rctl_nvmf_rej_name(uint16_t sts)
{
	return code_lookup(rej_names, N_OF(rej_names), sts);
}

/* ---- Identify, queues, discovery -------------------------------------- */

void rctl_nvme_id_ctrl_decode(const uint8_t p[RCTL_NVME_IDENTIFY_SIZE],
			      struct rctl_nvme_id_ctrl *c)
{
	memset(c, 0, sizeof(*c));
	c->mdts = p[77];
	c->cntlid = rctl_le_get16(p + 78);
	c->ver = rctl_le_get32(p + 80);
	c->ctratt = rctl_le_get32(p + 96);
	c->cntrltype = p[111];
	c->kas = rctl_le_get16(p + 320);
	c->sqes = p[512];
	c->cqes = p[513];
	c->maxcmd = rctl_le_get16(p + 514);
	c->nn = rctl_le_get32(p + 516);
	c->sgls = rctl_le_get32(p + 536);
	get_str(c->subnqn, sizeof(c->subnqn), p + 768, 256);
	c->ioccsz = rctl_le_get32(p + 1792);
	c->iorcsz = rctl_le_get32(p + 1796);
	c->icdoff = rctl_le_get16(p + 1800);
	c->fcatt = p[1802];
	c->msdbd = p[1803];
}

void rctl_nvme_id_ns_decode(const uint8_t p[RCTL_NVME_IDENTIFY_SIZE],
			    struct rctl_nvme_id_ns *ns)
{
	const uint8_t *lbaf;

	memset(ns, 0, sizeof(*ns));
	ns->nsze = rctl_le_get64(p);
	ns->ncap = rctl_le_get64(p + 8);
	ns->nuse = rctl_le_get64(p + 16);
	ns->nlbaf = p[25];
	ns->flbas = p[26];
	lbaf = p + 128 + 4 * (ns->flbas & 0xf);
	ns->ms = rctl_le_get16(lbaf);
	ns->lbads = lbaf[2];
}

uint32_t rctl_nvme_block_size(uint8_t lbads)
{
	return lbads >= 9 && lbads <= 16 ? 1u << lbads : 0;
}

uint64_t rctl_nvme_mdts_bytes(uint8_t mdts)
{
	if (!mdts || mdts >= 64 - 12)
		return UINT64_MAX;
	return 4096ull << mdts;
}

uint32_t rctl_nvme_inline_max(uint32_t ioccsz)
{
	uint64_t bytes = (uint64_t)ioccsz * 16;

	if (bytes <= 64)
		return 0;
	bytes -= 64;
	return bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
}

uint64_t rctl_nvme_ready_ms(uint64_t cap, uint64_t bound_ms)
{
	uint64_t ms = (RCTL_NVME_CAP_TO(cap) + 1) * 500ull;

	return bound_ms && bound_ms < ms ? bound_ms : ms;
}

uint32_t rctl_nvme_ns_list_decode(const uint8_t p[RCTL_NVME_IDENTIFY_SIZE],
				  uint32_t *ids, uint32_t max)
{
	uint32_t i, id;

	for (i = 0; i < RCTL_NVME_IDENTIFY_SIZE / 4 && i < max; i++) {
		id = rctl_le_get32(p + 4 * i);
		if (!id)
			break;
		ids[i] = id;
	}
	return i;
}

void rctl_nvme_nq_decode(uint32_t dw0, uint32_t *nsq, uint32_t *ncq)
{
	*nsq = (dw0 & 0xffff) + 1;
	*ncq = (dw0 >> 16) + 1;
}

uint16_t rctl_nvme_nq_granted(uint32_t dw0, uint16_t want)
{
	uint32_t nsq, ncq, n = want ? want : 1;

	rctl_nvme_nq_decode(dw0, &nsq, &ncq);
	n = n < nsq ? n : nsq;
	return (uint16_t)(n < ncq ? n : ncq);
}

void rctl_nvmf_disc_hdr_decode(const uint8_t p[1024], struct rctl_nvmf_disc_hdr *h)
{
	h->genctr = rctl_le_get64(p);
	h->numrec = rctl_le_get64(p + 8);
	h->recfmt = rctl_le_get16(p + 16);
}

void rctl_nvmf_disc_entry_decode(const uint8_t p[RCTL_NVMF_DISC_ENTRY_SIZE],
				 struct rctl_nvmf_disc_entry *d)
{
	memset(d, 0, sizeof(*d));
	d->trtype = p[0];
	d->adrfam = p[1];
	d->subtype = p[2];
	d->treq = p[3];
	d->portid = rctl_le_get16(p + 4);
	d->cntlid = rctl_le_get16(p + 6);
	d->asqsz = rctl_le_get16(p + 8);
	get_str(d->trsvcid, sizeof(d->trsvcid), p + 32, 32);
	get_str(d->subnqn, sizeof(d->subnqn), p + 256, 256);
	get_str(d->traddr, sizeof(d->traddr), p + 512, 256);
	d->qptype = p[768];
	d->prtype = p[769];
	d->cms = p[770];
	d->pkey = rctl_le_get16(p + 776);
}

static const char *name_or_unknown(const char *const *names, size_t n, uint8_t v)
{
	return v < n && names[v] ? names[v] : "unknown";
}

const char *rctl_nvmf_trtype_name(uint8_t v)
{
	static const char *const n[] = { NULL, "rdma", "fc", "tcp" };

	return name_or_unknown(n, N_OF(n), v);
}

const char *rctl_nvmf_adrfam_name(uint8_t v)
{
	static const char *const n[] = { NULL, "ipv4", "ipv6", "ib", "fc" };

	return name_or_unknown(n, N_OF(n), v);
}

const char *rctl_nvmf_subtype_name(uint8_t v)
{
	static const char *const n[] = { NULL, "discovery", "nvm", "current discovery" };

	return name_or_unknown(n, N_OF(n), v);
}

/* Records [0, num) of the log after its 1024-byte header, page by page. */
static int disc_records(rctl_nvmf_log_read read, void *ctx, uint32_t page_max, uint64_t num,
			struct rctl_nvmf_disc_entry *ents, struct rctl_err *e)
{
	uint32_t per_page = page_max / RCTL_NVMF_DISC_ENTRY_SIZE, k, i;
	const uint8_t *page;
	uint64_t done = 0;
	int ret;

	if (!per_page)
		return rctl_err_plain(e, EINVAL, "discovery: a page of %u bytes holds no record", page_max);
	while (done < num) {
		k = num - done < per_page ? (uint32_t)(num - done) : per_page;
		ret = read(ctx, 1024 + done * RCTL_NVMF_DISC_ENTRY_SIZE,
			   k * RCTL_NVMF_DISC_ENTRY_SIZE, &page, e);
		if (ret)
			return ret;
		for (i = 0; i < k; i++)
			rctl_nvmf_disc_entry_decode(page + (size_t)i * RCTL_NVMF_DISC_ENTRY_SIZE,
						    &ents[done + i]);
		done += k;
	}
	return 0;
}

int rctl_nvmf_disc_read(rctl_nvmf_log_read read, void *ctx, uint32_t page_max,
			struct rctl_nvmf_disc_entry **ents, uint32_t *n, struct rctl_err *e)
{
	struct rctl_nvmf_disc_hdr h, again;
	const uint8_t *page;
	int tries, ret;

	*ents = NULL;
	*n = 0;
	for (tries = 0; tries < RCTL_NVMF_DISC_RETRIES; tries++) {
		ret = read(ctx, 0, 1024, &page, e);
		if (ret)
			return ret;
		rctl_nvmf_disc_hdr_decode(page, &h);
		if (h.numrec > RCTL_NVMF_DISC_MAX)
			return rctl_err_plain(e, EPROTO, "discovery log of %llu records: more than %u",
					    (unsigned long long)h.numrec, RCTL_NVMF_DISC_MAX);
		free(*ents);
		*ents = calloc(h.numrec ? h.numrec : 1, sizeof(**ents));
		if (!*ents)
			return rctl_err_strerror(e, ENOMEM, "cannot allocate %llu discovery records",
					    (unsigned long long)h.numrec);
		ret = disc_records(read, ctx, page_max, h.numrec, *ents, e);
		if (!ret)	/* the log changed while read: read it all again */
			ret = read(ctx, 0, 1024, &page, e);
		if (ret)
			break;
		rctl_nvmf_disc_hdr_decode(page, &again);
		if (again.genctr == h.genctr && again.numrec == h.numrec) {
			*n = (uint32_t)h.numrec;
			return 0;
		}
	}
	free(*ents);
	*ents = NULL;
	if (ret)
		return ret;
	return rctl_err_plain(e, EAGAIN, "discovery log changed (genctr) in each of %d reads",
			    RCTL_NVMF_DISC_RETRIES);
}
