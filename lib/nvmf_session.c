// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bring-up of a 'bench nvmf' session (include/rocectl/nvmf.h): the
 * subsystem choice, the checks of namespace, block size and MDTS, the clamps
 * of qd and queues, the I/O queues. Decisions only; the command prints the
 * discovery log and the clamps it gets back as data.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/nvmf.h"

#define SUBTYPE_NVM 2		/* discovery log SUBTYPE: an NVM subsystem */

static int read_log(const struct rctl_nvmf_session_cfg *cfg, struct rctl_nvmf_session *s,
		    struct rctl_err *e)
{
	struct rctl_nvmf_opts co = cfg->conn;
	struct rctl_nvmf_ctrl *c;
	int ret;

	co.subnqn = RCTL_NVMF_DISC_NQN;
	co.kato_ms = 0;
	ret = rctl_nvmf_connect(&co, &c, e);
	if (ret)
		return ret;
	ret = rctl_nvmf_discover(c, &s->disc, &s->ndisc, e);
	rctl_nvmf_close(c);
	return ret;
}

/* The only NVM subsystem of the discovery log. */
static int choose(const struct rctl_nvmf_session_cfg *cfg, struct rctl_nvmf_session *s,
		  struct rctl_err *e)
{
	uint32_t i, nvm = 0;
	int ret = read_log(cfg, s, e);

	if (ret)
		return ret;
	for (i = 0; i < s->ndisc; i++)
		if (s->disc[i].subtype == SUBTYPE_NVM && nvm++ == 0)
			snprintf(s->nqn, sizeof(s->nqn), "%s", s->disc[i].subnqn);
	if (nvm == 1)
		return 0;
	return rctl_err_plain(e, ENOENT, nvm ?
			    "discovery on '%s:%u' lists %u subsystems; choose one with --nqn" :
			    "discovery on '%s:%u' lists no NVM subsystem", cfg->conn.traddr,
			    cfg->conn.port, nvm);
}

/*
 * The target has no subsystem of that name: say which it has, from its
 * discovery log, keeping the first message.
 */
static int name_subsystems(const struct rctl_nvmf_session_cfg *cfg,
			   struct rctl_nvmf_session *s, struct rctl_err *e)
{
	struct rctl_err de = { 0 };
	char list[sizeof(e->msg)] = "", msg[sizeof(e->msg)];
	size_t n = 0;
	uint32_t i, nvm = 0;

	if (read_log(cfg, s, &de))
		return -e->errnum;
	for (i = 0; i < s->ndisc && n < sizeof(list); i++) {
		if (s->disc[i].subtype != SUBTYPE_NVM)
			continue;
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s'%s'", nvm++ ? ", " : "",
				      s->disc[i].subnqn);
	}
	snprintf(msg, sizeof(msg), "%s; the target's discovery log lists %s%s", e->msg,
		 nvm ? "these NVM subsystems: " : "no NVM subsystem", list);
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
	free(s->disc);		/* named in the message; not a log to print */
	s->disc = NULL;
	s->ndisc = 0;
	return -e->errnum;
}

static int check_ns(const struct rctl_nvmf_session_cfg *cfg, struct rctl_nvmf_session *s,
		    struct rctl_err *e)
{
	const struct rctl_nvmf_info *in = rctl_nvmf_info(s->c);
	uint32_t ids[64], n, i, bsz;
	char list[256] = "";
	uint64_t mdts;
	int ret;

	ret = rctl_nvmf_active_ns(s->c, ids, 64, &n, e);
	if (ret)
		return ret;
	for (i = 0; i < n && ids[i] != cfg->nsid; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%u",
			 i ? ", " : "", ids[i]);
	if (i == n)
		return rctl_err_plain(e, ENOENT, "namespace %u not found in '%s' (active: %s)",
				    cfg->nsid, s->nqn, n ? list : "none");
	ret = rctl_nvmf_identify_ns(s->c, cfg->nsid, &s->ns, e);
	if (ret)
		return ret;
	bsz = rctl_nvme_block_size(s->ns.lbads);
	mdts = rctl_nvme_mdts_bytes(in->id.mdts);
	if (!bsz)
		return rctl_err_plain(e, ENOTSUP, "namespace %u has an unsupported block size "
				    "(LBADS %u; 9 to 16 are supported)", cfg->nsid, s->ns.lbads);
	if (cfg->bs % bsz)
		return rctl_err_plain(e, EINVAL, "--bs %" PRIu32 " is not a multiple of the "
				    "%u-byte blocks of namespace %u", cfg->bs, bsz, cfg->nsid);
	if (cfg->bs > mdts)
		return rctl_err_plain(e, EINVAL, "--bs %" PRIu32 " exceeds the target's largest "
				    "transfer (MDTS) of %" PRIu64 " bytes", cfg->bs, mdts);
	return 0;
}

/* want above max: clamped and noted, or refused with strict. */
static int clamp(const struct rctl_nvmf_session_cfg *cfg, struct rctl_nvmf_session *s,
		 const char *what, int want, int max, int *got, struct rctl_err *e)
{
	*got = want;
	if (want <= max)
		return 0;
	if (cfg->strict)
		return rctl_err_plain(e, ERANGE, "--%s %d exceeds the target's limit of %d "
				    "(refused with --strict)", what, want, max);
	s->clamp[s->nclamp++] = (struct rctl_nvmf_clamp){ what, want, max };
	*got = max;
	return 0;
}

static int open_queues(const struct rctl_nvmf_session_cfg *cfg,
		       struct rctl_nvmf_session *s, struct rctl_err *e)
{
	const struct rctl_nvmf_info *in = rctl_nvmf_info(s->c);
	int qd, nq, i, ret;
	uint16_t got;

	ret = clamp(cfg, s, "qd", cfg->qd, (int)RCTL_NVME_CAP_MQES(in->cap), &qd, e);
	if (!ret)
		ret = rctl_nvmf_set_queues(s->c, (uint16_t)cfg->queues, &got, e);
	if (!ret)
		ret = clamp(cfg, s, "queues", cfg->queues, got, &nq, e);
	if (ret)
		return ret;
	s->qd = (uint16_t)qd;
	for (i = 0; i < nq; i++) {
		ret = rctl_nvmf_ioq_create(s->c, (uint16_t)(i + 1), s->qd, cfg->bs, cfg->event,
					   &s->q[i], e);
		if (ret)
			return ret;
		s->nq++;
	}
	return 0;
}

int rctl_nvmf_session_open(const struct rctl_nvmf_session_cfg *cfg,
			   struct rctl_nvmf_session **out, struct rctl_err *e)
{
	struct rctl_nvmf_session *s = calloc(1, sizeof(*s));
	struct rctl_nvmf_opts co = cfg->conn;
	int ret;

	*out = s;
	if (!s)
		return rctl_err_strerror(e, ENOMEM, "cannot allocate a session");
	if (cfg->nqn)
		snprintf(s->nqn, sizeof(s->nqn), "%s", cfg->nqn);
	ret = cfg->nqn ? 0 : choose(cfg, s, e);
	if (ret)
		return ret;
	co.subnqn = s->nqn;
	ret = rctl_nvmf_connect(&co, &s->c, e);
	if (ret && e->errnum == ENOENT && cfg->nqn)
		return name_subsystems(cfg, s, e);
	if (!ret)
		ret = check_ns(cfg, s, e);
	if (!ret)
		ret = open_queues(cfg, s, e);
	return ret;
}

void rctl_nvmf_session_close(struct rctl_nvmf_session *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->nq; i++)
		rctl_nvmf_ioq_destroy(s->q[i]);
	rctl_nvmf_close(s->c);
	free(s->disc);
	free(s);
}
