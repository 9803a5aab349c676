// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl tune plan|apply|revert: show the changes that bring the host to the
 * intent, apply them (state file first, safe order, rollback on failure,
 * then a re-read and the checks of the touched areas), and put the saved
 * values back. Only apply and revert write; plan reads like check does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "rocectl/collect.h"
#include "rocectl/out.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"
#include "rocectl/tune.h"

static struct {
	struct rctl_intent_args ia;
	const char *dev;
	const char *state_dir;
	const char *plan;
	struct rctl_opt_list only, skip;
	bool yes, force, persist, boot;
} o = { .state_dir = RCTL_TUNE_STATE_DIR };

/* --only and --skip: plan and apply schedule a change (a PFC link flap) apart. */
#define SELECT_OPTS							\
	{ .name = "only", .type = OPT_LIST, .arg = "AREA|SETTING",	\
	  .dst = &o.only, .kind = ARG_SETTING,				\
	  .help = "only the changes of this area or setting id (repeatable, or a comma list)" }, \
	{ .name = "skip", .type = OPT_LIST, .arg = "AREA|SETTING",	\
	  .dst = &o.skip, .kind = ARG_SETTING,				\
	  .help = "leave out the changes of this area or setting id (repeatable, or a comma list)" }

#define STATE_DIR_OPT							\
	{ .name = "state-dir", .type = OPT_STR, .arg = "DIR",		\
	  .dst = &o.state_dir, .kind = ARG_FILE,			\
	  .help = "where state files live (default " RCTL_TUNE_STATE_DIR ")" }

static const struct rctl_opt plan_opts[] = {
	RCTL_INTENT_OPTS(o.ia),
	CMD_DEV_OPT(o.dev),
	SELECT_OPTS,
	{ 0 }
};

static const struct rctl_opt apply_opts[] = {
	RCTL_INTENT_OPTS(o.ia),
	CMD_DEV_OPT(o.dev),
	SELECT_OPTS,
	{ .name = "plan", .type = OPT_STR, .arg = "FILE", .dst = &o.plan, .kind = ARG_FILE,
	  .help = "apply exactly this reviewed plan ('tune plan -j' output), "
		  "refused when the host changed since" },
	{ .name = "persist", .type = OPT_FLAG, .dst = &o.persist,
	  .help = "re-apply this intent at every boot (enables rocectl-tune.service)" },
	{ .name = "yes", .short_name = 'y', .type = OPT_FLAG, .dst = &o.yes,
	  .help = "apply without asking (needed when stdin is not a terminal)" },
	{ .name = "force", .type = OPT_FLAG, .dst = &o.force,
	  .help = "write DCB even while lldpad runs (it may override it)" },
	{ .name = "boot", .type = OPT_FLAG, .dst = &o.boot,
	  .help = "keep the state in " RCTL_TUNE_BOOT_STATE ", replaced at each boot "
		  "(" RCTL_TUNE_UNIT " uses it)" },
	STATE_DIR_OPT,
	{ 0 }
};

static const struct rctl_opt revert_opts[] = {
	STATE_DIR_OPT,
	{ 0 }
};

static const struct out_col plan_cols[] = {
	{ .key = "step", .title = "STEP", .flags = OUT_COL_RIGHT },
	{ .key = "area", .title = "AREA" },
	{ .key = "target", .title = "TARGET" },
	{ .key = "setting", .title = "SETTING" },
	{ .key = "from", .title = "CURRENT" },
	{ .key = "to", .title = "WANTED" },
	{ .key = "status", .title = "STATUS" },
};

static const char *nz(const char *s)
{
	return s[0] ? s : NULL;
}

/*
 * One table of changes; "status" shows what apply/revert did, if anything;
 * "tried_only": only the changes this run wrote (revert).
 */
static void print_changes(const struct rctl_tune_plan *p, bool status, bool tried_only)
{
	uint32_t i, step = 0;
	char lost[96];

	out_table_begin("changes", plan_cols, status ? 7 : 6);
	for (i = 0; i < p->n_ch; i++) {
		const struct rctl_tune_change *c = &p->ch[i];

		step += !c->skip[0];
		if (tried_only && !c->tried)
			continue;
		out_row_begin();
		if (c->skip[0])
			out_null(OUT_ANY, "step", NULL);
		else
			out_u64(OUT_ANY, "step", NULL, step);
		out_str(OUT_ANY, "area", NULL, rctl_area_name(c->area));
		out_str(OUT_ANY, "target", NULL, c->target);
		out_str(OUT_ANY, "setting", NULL, c->setting);
		out_str(OUT_JSON, "setting_id", NULL, rctl_setting_name(rctl_tune_setting_id(c)));
		out_str(OUT_ANY, "from", NULL, c->from);
		out_str(OUT_ANY, "to", NULL, c->to);
		if (status)
			out_str(OUT_ANY, "status", NULL, nz(rctl_tune_status_name(c->status)));
		out_str(OUT_JSON, "via", NULL, nz(c->via));
		out_str(OUT_JSON, "command", NULL, nz(c->command));
		out_str(OUT_JSON, "warning", NULL, nz(c->warning));
		out_str(OUT_JSON, "skip", NULL, nz(c->skip));
		out_bool(OUT_JSON, "needs_force", NULL, c->needs_force);
		out_str(OUT_JSON, "lost_on", NULL, rctl_tune_lost_on(c, lost, sizeof(lost)));
		if (status)
			out_str(OUT_JSON, "result", NULL, nz(c->result));
		else	/* what apply --plan writes: every field of the state file */
			out_json_fields(rctl_tune_change_json(c));
		out_row_end();
	}
	out_table_end();
}

/* Text only: how each step writes, the usual tool's command, warnings. */
static void print_details(const struct rctl_tune_plan *p, bool results)
{
	uint32_t i, step = 0;
	char lost[96];

	for (i = 0; i < p->n_ch; i++) {
		const struct rctl_tune_change *c = &p->ch[i];

		if (c->skip[0]) {
			out_text("skipped: %s %s %s: %s\n", rctl_area_name(c->area), c->target,
				 c->setting, c->skip);
			continue;
		}
		out_text("step %u: %s %s via %s\n", ++step, c->target, c->setting, c->via);
		out_text("        like: %s\n", c->command);
		out_text("        lost at: %s\n", rctl_tune_lost_on(c, lost, sizeof(lost)));
		if (c->warning[0])
			out_text("        warning: %s%s\n", c->warning,
				 c->needs_force ? " (needs --force)" : "");
		if (results && c->result[0])
			out_text("        %s: %s\n", rctl_tune_status_name(c->status), c->result);
	}
}

/* JSON always has "changes" ([] when empty); text shows nothing then. */
static void print_plan(const struct rctl_tune_plan *p)
{
	if (!p->n_ch && !out_json())
		return;
	print_changes(p, false, false);
	print_details(p, false);
}

static int load_intent(struct rctl_ctx *ctx, struct rctl_intent *in)
{
	struct rctl_err e = { 0 };

	if (rctl_intent_resolve(in, &o.ia, &e))
		return cmd_error(ctx, e.errnum == EINVAL ? RCTL_EXIT_USAGE : RCTL_EXIT_UNKNOWN, &e);
	out_str(OUT_JSON, "profile", NULL, in->profile);
	return 0;
}

/* The host as read now, or "again" after apply's writes. */
static int read_host(struct rctl_ctx *ctx, struct rctl_host *h, bool again)
{
	const char *test = ctx->input ? NULL :
			   getenv(again ? RCTL_TUNE_HOST_AFTER_ENV : RCTL_TUNE_HOST_ENV);
	struct rctl_err e = { 0 };

	if (test && *test ? rctl_snapshot_load(test, h, &e) : cmd_load_host(ctx, 0, h, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	return 0;
}

static int load_host(struct rctl_ctx *ctx, struct rctl_host *h)
{
	return read_host(ctx, h, false);
}

/*
 * What check says of the host the plan was made from, for what tune does
 * not change (a manual step) and what it cannot read (unknown). Counters
 * need two samples and the peer area the switch's LLDP, which tune does not
 * read: 'rocectl doctor' judges them.
 */
static struct rctl_report judged;

#define TUNE_JUDGED_AREAS (((1u << RCTL_AREA_N) - 1) & \
			   ~(1u << RCTL_AREA_COUNTERS | 1u << RCTL_AREA_PEER))

static bool manual_step(const struct rctl_tune_plan *p, const struct rctl_finding *f)
{
	return (f->status == RCTL_WARN || f->status == RCTL_FAIL) && !rctl_tune_plan_covers(p, f);
}

/* --only and --skip name areas and setting ids: checked before the host is read. */
static int check_select(struct rctl_ctx *ctx)
{
	struct rctl_tune_plan none = { 0 };
	struct rctl_err e = { 0 };

	if (rctl_tune_select(&none, o.only.v, o.only.n, o.skip.v, o.skip.n, &e))
		return cmd_error(ctx, RCTL_EXIT_USAGE, &e);
	return 0;
}

static int select_changes(struct rctl_ctx *ctx, struct rctl_tune_plan *p)
{
	struct rctl_err e = { 0 };

	if (rctl_tune_select(p, o.only.v, o.only.n, o.skip.v, o.skip.n, &e))
		return cmd_error(ctx, RCTL_EXIT_USAGE, &e);
	return 0;
}

/* The plan of the host read now, with the digest of what it read when "dg". */
static int make_plan(struct rctl_ctx *ctx, const struct rctl_intent *in,
		     struct rctl_tune_plan *p, struct rctl_tune_digest *dg)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;
	int ret;

	ret = load_host(ctx, &h);
	if (ret)
		return ret;
	ret = cmd_check_filter(ctx, &h, o.dev);
	if (ret) {
		rctl_host_free(&h);
		return ret;
	}
	ret = rctl_tune_plan_dev(&h, in, o.dev, p, &e);
	if (!ret && dg && (ret = rctl_tune_digest(&h, in, o.dev, dg, &e)))
		rctl_tune_plan_free(p);
	if (!ret)
		rctl_judge_host(&h, in, TUNE_JUDGED_AREAS, o.dev, &judged);
	rctl_host_free(&h);
	if (ret)
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	ret = select_changes(ctx, p);
	if (ret) {
		rctl_tune_plan_free(p);
		if (dg)
			rctl_tune_digest_free(dg);
	}
	return ret;
}

/* What tune leaves to the operator, with check's fix for each. */
static void print_manual(const struct rctl_tune_plan *p)
{
	uint32_t i, n = 0;

	out_arr_begin("manual");
	for (i = 0; i < judged.n; i++) {
		if (!manual_step(p, &judged.f[i]))
			continue;
		if (!n++)
			out_text("\nmanual steps (tune does not change these; 'rocectl check' reports them):\n");
		cmd_print_finding(&judged.f[i], false);
	}
	out_arr_end();
	rctl_report_free(&judged);
	memset(&judged, 0, sizeof(judged));
}

/*
 * "At the intent" only where check would pass: no change left, no manual
 * step, nothing unknown (of the areas tune judges).
 */
static void print_summary(const struct rctl_tune_plan *p, const struct rctl_intent *in)
{
	uint32_t n = rctl_tune_plan_active(p), manual = 0, unknown = judged.count[RCTL_UNKNOWN];
	uint32_t i, held = 0;

	for (i = 0; i < judged.n; i++)
		manual += manual_step(p, &judged.f[i]);
	for (i = 0; i < p->n_ch; i++)
		held += p->ch[i].held;
	out_u64(OUT_JSON, "to_apply", NULL, n);
	out_u64(OUT_JSON, "skipped", NULL, p->n_ch - n);
	out_u64(OUT_JSON, "held_count", NULL, held);
	out_u64(OUT_JSON, "manual_steps", NULL, manual);
	out_u64(OUT_JSON, "unknown", NULL, unknown);
	out_bool(OUT_JSON, "at_intent", NULL, !n && !held && !manual && !unknown && !judged.oom);
	if (n)
		out_text("%u change%s to reach the intent (profile %s)", n,
			 n == 1 ? "" : "s", in->profile);
	else if (held)
		out_text("nothing to change of what --only and --skip select, "
			 "but the host is not at the intent (profile %s)", in->profile);
	else if (!manual && !unknown)
		out_text("nothing to change: the host is at the intent (profile %s)",
			 in->profile);
	else
		out_text("nothing tune can change, but the host is not %s the intent (profile %s)",
			 manual ? "at" : "known to be at", in->profile);
	if (p->n_ch - n)
		out_text(", %u skipped", p->n_ch - n);
	if (manual)
		out_text(", %u manual step%s (below)", manual, manual == 1 ? "" : "s");
	if (unknown)
		out_text(", %u unknown (see 'rocectl check all')", unknown);
	out_text("\n");
	out_bool(OUT_JSON, "persistent", NULL, false);
	if (n)
		out_text("these settings do not survive a reboot or a driver reload: "
			 "'tune apply --persist' re-applies the intent at boot\n");
}

static int do_tune_plan(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct rctl_tune_digest dg;
	struct rctl_tune_plan p;
	struct rctl_intent in;
	int ret;

	ret = cmd_dev_arg(ctx, o.dev, argc, argv, &o.dev);
	if (!ret)
		ret = check_select(ctx);
	if (!ret)
		ret = load_intent(ctx, &in);
	if (!ret)
		ret = make_plan(ctx, &in, &p, &dg);
	if (ret)
		return ret;
	/* What 'tune apply --plan' reads back: the version, and the digest of what was read. */
	out_u64(OUT_JSON, "plan_version", NULL, RCTL_TUNE_PLAN_VERSION);
	out_json_item("digest", rctl_tune_digest_json(&dg));
	rctl_tune_digest_free(&dg);
	print_summary(&p, &in);
	print_plan(&p);
	print_manual(&p);
	rctl_tune_plan_free(&p);
	return RCTL_EXIT_OK;
}

/* ---- apply ------------------------------------------------------------ */

/* Without a person to ask, only --yes may write: refuse before reading. */
static int need_yes(struct rctl_ctx *ctx)
{
	if (o.yes || isatty(STDIN_FILENO))
		return 0;
	return cmd_errorf(ctx, RCTL_EXIT_USAGE,
			  "not applying: stdin is not a terminal and --yes was not given");
}

static int confirm(struct rctl_ctx *ctx, uint32_t n)
{
	char line[16];

	if (o.yes)
		return 0;
	fprintf(stderr, "apply %u change%s? [y/N] ", n, n == 1 ? "" : "s");
	if (!fgets(line, sizeof(line), stdin) || (line[0] != 'y' && line[0] != 'Y'))
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "not applied");
	return 0;
}

static int refuse_owned(struct rctl_ctx *ctx, const struct rctl_tune_plan *p)
{
	uint32_t i;

	for (i = 0; i < p->n_ch && !o.force; i++)
		if (p->ch[i].needs_force && !p->ch[i].skip[0])
			return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN,
					  "not applying: %s (use --force to write anyway)",
					  p->ch[i].warning);
	return 0;
}

/* Bit mask of the check areas the plan touches. */
static unsigned int touched_areas(const struct rctl_tune_plan *p)
{
	unsigned int m = 0;
	uint32_t i;

	for (i = 0; i < p->n_ch; i++)
		if (p->ch[i].status == RCTL_TUNE_APPLIED)
			m |= 1u << p->ch[i].area;
	return m;
}

static void print_findings(const struct rctl_report *r)
{
	uint32_t i;

	out_arr_begin("findings");
	for (i = 0; i < r->n; i++)
		cmd_print_finding(&r->f[i], true);
	out_arr_end();
}

/*
 * Re-read the host: the checks of the areas written, and a new plan, which
 * must hold nothing more to apply (drivers may accept a write and ignore it).
 */
/* Whether "c" (of a plan made again) is a change this run applied. */
static bool was_applied(const struct rctl_tune_plan *done, const struct rctl_tune_change *c)
{
	uint32_t i;

	for (i = 0; i < done->n_ch; i++)
		if (done->ch[i].status == RCTL_TUNE_APPLIED && !strcmp(done->ch[i].target, c->target) &&
		    !strcmp(done->ch[i].setting, c->setting))
			return true;
	return false;
}

static int verify(struct rctl_ctx *ctx, const struct rctl_intent *in,
		  const struct rctl_tune_plan *done)
{
	struct rctl_report r = { 0 };
	struct rctl_tune_plan again;
	struct rctl_err e = { 0 };
	struct rctl_host h;
	uint32_t left = 0, i;
	int ret;

	ret = read_host(ctx, &h, true);
	if (ret)
		return ret;
	out_text("checks of the areas changed, on the host as read again:\n");
	rctl_judge_host(&h, in, touched_areas(done), o.dev, &r);
	print_findings(&r);
	rctl_report_free(&r);
	ret = rctl_tune_plan_dev(&h, in, o.dev, &again, &e);
	rctl_host_free(&h);
	if (ret)
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	/* What --only, --skip or the reviewed plan left out is not "left". */
	for (i = 0; i < again.n_ch; i++)
		left += !again.ch[i].skip[0] && was_applied(done, &again.ch[i]);
	rctl_tune_plan_free(&again);
	out_u64(OUT_JSON, "left_to_apply", NULL, left);
	if (left)
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN,
				  "%u change%s did not take effect: the driver accepted the write but the host reads back otherwise",
				  left, left == 1 ? "" : "s");
	return RCTL_EXIT_OK;
}

/* Every change apply skipped, planned so or answered "not supported". */
static void warn_skipped(struct rctl_ctx *ctx, const struct rctl_tune_plan *p)
{
	uint32_t i;

	for (i = 0; i < p->n_ch; i++)
		if (p->ch[i].status == RCTL_TUNE_SKIPPED)
			cmd_warn(ctx, "skipped %s of '%s': %s", p->ch[i].setting,
				 p->ch[i].target, p->ch[i].result);
}

/* --persist: the unit is installed and the intent can be carried, before any write. */
static int persist_ready(struct rctl_ctx *ctx, const struct rctl_intent *in)
{
	char unit[4096], text[8192];
	struct rctl_err e = { 0 };

	if (rctl_tune_unit_path(unit, sizeof(unit), &e) ||
	    rctl_tune_dropin_text(in, o.dev, o.force, text, sizeof(text), &e))
		return cmd_error(ctx, e.errnum == EINVAL ? RCTL_EXIT_USAGE : RCTL_EXIT_UNKNOWN, &e);
	return 0;
}

/* --persist: after a good apply (or none needed), enable the boot-time apply. */
static int persist(struct rctl_ctx *ctx, const struct rctl_intent *in)
{
	char dropin[4096];
	struct rctl_err e = { 0 };

	if (rctl_tune_persist(in, o.dev, o.force, dropin, sizeof(dropin), &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	out_str(OUT_ANY, "persist_dropin", "re-applied at boot by " RCTL_TUNE_UNIT
		" (enabled; intent in %s)\n", dropin);
	return RCTL_EXIT_OK;
}

static void state_file(const char *fmt, const struct rctl_tune_dir *d, const char *name)
{
	char path[sizeof(d->path) + 256];

	if (!name[0]) {
		out_null(OUT_JSON, "state_file", NULL);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", d->path, name);
	out_str(OUT_ANY, "state_file", fmt, path);
}

/* The state directory, checked and locked until the command is done. */
static int open_dir(struct rctl_ctx *ctx, struct rctl_tune_dir *d, const char *path,
		    bool create)
{
	struct rctl_err e = { 0 };

	if (rctl_tune_dir_open(d, path, create, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	return 0;
}

/* Write the plan, show what happened, then check the host as read again. */
static int apply_plan(struct rctl_ctx *ctx, const struct rctl_intent *in,
		      struct rctl_tune_plan *p, const struct rctl_tune_dir *d)
{
	char name[256] = "";
	struct rctl_err e = { 0 };
	int ret;

	if (o.boot)
		snprintf(name, sizeof(name), "%s", RCTL_TUNE_BOOT_STATE);
	ret = rctl_tune_apply(p, d, name, sizeof(name), &e);
	state_file("state file: %s\n", d, name);
	out_obj_begin("result");
	print_changes(p, true, false);
	out_obj_end();
	if (o.yes)
		print_details(p, true);
	warn_skipped(ctx, p);
	if (ret)
		ret = cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	else
		ret = verify(ctx, in, p);
	if (!ret && o.persist)
		ret = persist(ctx, in);
	return ret;
}

/*
 * Under --yes the plan is not printed: the connections a new default ToS
 * does not reach are still said, on stderr.
 */
static void warn_live_cm(struct rctl_ctx *ctx, const struct rctl_tune_plan *p)
{
	uint32_t i;

	for (i = 0; i < p->n_ch; i++)
		if (!p->ch[i].skip[0] && p->ch[i].warning[0] &&
		    !strcmp(p->ch[i].setting, RCTL_CM_TOS_FILE))
			cmd_warn(ctx, "%s: %s", p->ch[i].target, p->ch[i].warning);
}

/* Show the plan, ask, apply: the same for a plan made now and a reviewed one. */
static int show_and_apply(struct rctl_ctx *ctx, const struct rctl_intent *in,
			  struct rctl_tune_plan *p, const struct rctl_tune_dir *d)
{
	uint32_t n = rctl_tune_plan_active(p);
	int ret;

	print_summary(p, in);
	/* With --yes the result table below says it all; JSON keeps both. */
	if (!n || !o.yes || out_json())
		print_plan(p);
	else
		warn_live_cm(ctx, p);
	print_manual(p);
	if (!n)
		return o.persist ? persist(ctx, in) : RCTL_EXIT_OK;
	ret = refuse_owned(ctx, p);
	if (!ret)
		ret = confirm(ctx, n);
	if (!ret)
		ret = apply_plan(ctx, in, p, d);
	return ret;
}

static int plan_and_apply(struct rctl_ctx *ctx, const struct rctl_intent *in,
			  const struct rctl_tune_dir *d)
{
	struct rctl_tune_plan p;
	int ret;

	ret = make_plan(ctx, in, &p, NULL);
	if (ret)
		return ret;
	ret = show_and_apply(ctx, in, &p, d);
	rctl_tune_plan_free(&p);
	return ret;
}

/*
 * --plan: the host must read as it did when the plan was made (its digest),
 * for the same intent; only then are the plan's own changes applied.
 */
static int host_unchanged(struct rctl_ctx *ctx, const struct rctl_intent *in,
			  const struct rctl_tune_reviewed *r)
{
	const struct rctl_tune_digest_part *part;
	struct rctl_tune_digest now;
	struct rctl_err e = { 0 };
	struct rctl_host h;
	bool gone;
	int ret;

	ret = load_host(ctx, &h);
	if (ret)
		return ret;
	if (strcmp(h.hostname, r->hostname)) {
		ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "not applying '%s': it was made for host '%s', "
				 "this is '%s'", o.plan, r->hostname, h.hostname);
		rctl_host_free(&h);
		return ret;
	}
	ret = rctl_tune_digest(&h, in, NULL, &now, &e);
	if (!ret)
		rctl_judge_host(&h, in, TUNE_JUDGED_AREAS, NULL, &judged);
	rctl_host_free(&h);
	if (ret)
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	part = rctl_tune_digest_changed(&r->digest, &now, &gone);
	if (part && !strcmp(part->part, "intent"))
		ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "not applying '%s': the intent differs from "
				 "the plan's (profile, config file or intent options): make a new plan",
				 o.plan);
	else if (part)
		ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "not applying '%s': the host changed since "
				 "the plan: %s %s: make a new plan", o.plan, part->part,
				 gone ? "is gone" : "reads otherwise now");
	rctl_tune_digest_free(&now);
	return ret;
}

static int apply_reviewed(struct rctl_ctx *ctx, const struct rctl_intent *in,
			  const struct rctl_tune_dir *d)
{
	struct rctl_tune_reviewed r;
	struct rctl_err e = { 0 };
	int ret;

	if (rctl_tune_plan_load(o.plan, &r, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	ret = host_unchanged(ctx, in, &r);
	if (!ret)
		ret = select_changes(ctx, &r.plan);
	if (!ret)
		ret = show_and_apply(ctx, in, &r.plan, d);
	else
		rctl_report_free(&judged);
	rctl_tune_reviewed_free(&r);
	return ret;
}

/* Locked before the host is read: the plan's "from" values are still true when written. */
static int do_tune_apply(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct rctl_tune_dir d;
	struct rctl_intent in;
	int ret;

	ret = cmd_dev_arg(ctx, o.dev, argc, argv, &o.dev);
	if (!ret && o.plan && o.dev)
		ret = cmd_errorf(ctx, RCTL_EXIT_USAGE, "--plan applies the ports of its plan: "
				 "no device with it ('tune plan DEV -j' makes a plan of one)");
	if (!ret)
		ret = check_select(ctx);
	if (!ret)
		ret = need_yes(ctx);
	if (!ret)
		ret = load_intent(ctx, &in);
	if (!ret && o.persist)	/* refuse before writing anything */
		ret = persist_ready(ctx, &in);
	if (!ret)
		ret = open_dir(ctx, &d, o.state_dir, true);
	if (ret)
		return ret;
	ret = o.plan ? apply_reviewed(ctx, &in, &d) : plan_and_apply(ctx, &in, &d);
	rctl_tune_dir_close(&d);
	return ret;
}

/* ---- revert ----------------------------------------------------------- */

/* A revert also stops the boot-time re-apply, which would undo it. */
static int unpersist(struct rctl_ctx *ctx)
{
	struct rctl_err e = { 0 };
	bool removed;

	if (rctl_tune_unpersist(&removed, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	out_bool(OUT_JSON, "persist_removed", NULL, removed);
	if (removed)
		out_text("disabled the boot-time re-apply (" RCTL_TUNE_UNIT ")\n");
	return RCTL_EXIT_OK;
}

/* What this revert did: never a change it did not undo, nor one undone before. */
static void print_reverted(struct rctl_ctx *ctx, const struct rctl_tune_plan *p)
{
	uint32_t i, done = 0, left = 0;

	for (i = 0; i < p->n_ch; i++) {
		const struct rctl_tune_change *c = &p->ch[i];

		if (!c->tried)
			continue;
		done += c->status == RCTL_TUNE_REVERTED;
		if (c->status != RCTL_TUNE_REVERT_FAILED)
			continue;
		left++;
		cmd_warn(ctx, "not undone: %s of '%s': %s", c->setting, c->target, c->result);
	}
	out_u64(OUT_JSON, "reverted", NULL, done);
	out_u64(OUT_JSON, "not_reverted", NULL, left);
	if (!done && !left)
		out_text("nothing to revert: no change of this state file is applied\n");
	else if (!left)
		out_text("reverted %u change%s\n", done, done == 1 ? "" : "s");
	else
		out_text("reverted %u change%s, %u not undone: 'tune revert' again retries them\n",
			 done, done == 1 ? "" : "s", left);
}

/* STATE_FILE: its directory (checked and locked like the state directory) and name. */
static const char *split_state(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, len, ".");
		return path;
	}
	snprintf(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return slash + 1;
}

static int do_tune_revert(struct rctl_ctx *ctx, int argc, char **argv)
{
	char dir[4096], name[256];
	struct rctl_err e = { 0 };
	struct rctl_tune_plan p = { 0 };
	struct rctl_tune_dir d;
	int ret;

	snprintf(name, sizeof(name), "%s", argc ? split_state(argv[0], dir, sizeof(dir)) : "");
	ret = open_dir(ctx, &d, argc ? dir : o.state_dir, false);
	if (ret)
		return ret;
	if (!argc && (ret = rctl_tune_newest_state(&d, name, sizeof(name), &e))) {
		rctl_tune_dir_close(&d);
		if (ret != -ENOENT)
			return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
		/* Nothing applied is left: the host is as it was, which is what was asked. */
		out_u64(OUT_JSON, "reverted", NULL, 0);
		out_u64(OUT_JSON, "not_reverted", NULL, 0);
		out_text("nothing to revert: %s\n", e.msg);
		return RCTL_EXIT_OK;
	}
	state_file("reverting %s\n", &d, name);
	ret = rctl_tune_revert(&d, name, &p, &e);
	if (p.n_ch)
		print_changes(&p, true, true);	/* what an earlier revert did is not news */
	if (p.n_ch || !ret)
		print_reverted(ctx, &p);
	rctl_tune_plan_free(&p);
	/* The boot-time re-apply goes only when nothing is left to undo. */
	ret = ret ? cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e) : unpersist(ctx);
	rctl_tune_dir_close(&d);
	return ret;
}

/* tune plans from the inventory and the QoS settings (no counters). */
#define TUNE_HOST (RCTL_COLLECT_INVENTORY | RCTL_COLLECT_QOS | RCTL_COLLECT_CONSUMERS)

static const struct rctl_cmd tune_plan = {
	.name = "plan",
	.summary = "show the changes that bring the host to the intent",
	.args = "[DEV]",
	.max_args = 1,
	.arg_kind = ARG_DEV,
	.opts = plan_opts,
	.fn = do_tune_plan,
	.host = TUNE_HOST,
	.host_input = true,
	.input_help = "plan for a snapshot written by 'rocectl collect' instead of this host",
};

static const struct rctl_cmd tune_apply = {
	.name = "apply",
	.summary = "apply the plan, saving the previous values first; roll back on failure",
	.args = "[DEV]",
	.max_args = 1,
	.arg_kind = ARG_DEV,
	.opts = apply_opts,
	.fn = do_tune_apply,
	.host = TUNE_HOST,
	.flags = CMD_ROOT,
};

static const struct rctl_cmd tune_revert = {
	.name = "revert",
	.summary = "put back the values saved by an apply (default: the newest)",
	.args = "[STATE_FILE]",
	.max_args = 1,
	.arg_kind = ARG_STATE,
	.opts = revert_opts,
	.fn = do_tune_revert,
	.flags = CMD_ROOT,
};

static const struct rctl_cmd *const tune_sub[] = {
	&tune_plan, &tune_apply, &tune_revert, NULL
};

const struct rctl_cmd cmd_tune = {
	.name = "tune",
	.summary = "plan, apply and revert the host's RoCE settings",
	.sub = tune_sub,
};
