// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tune apply --persist: what systemctl enable does for rocectl-tune.service,
 * plus a drop-in that carries the intent's options, so the unit re-applies
 * the same intent at boot (tune.h). Written by hand because the unit
 * directory must work without a running systemd (installers, the lab) and
 * because revert must remove exactly what apply wrote, nothing else.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/fileio.h"
#include "rocectl/json.h"
#include "rocectl/tune_persist.h"

#define DROPIN_NAME "persist.conf"

/* Where systemd looks for system units, $ROCECTL_SYSTEMD_DIR first. */
static const char *const unit_dirs[] = {
	"/etc/systemd/system", "/usr/local/lib/systemd/system",
	"/usr/lib/systemd/system", "/lib/systemd/system", NULL,
};

static const char *systemd_dir(void)
{
	const char *d = getenv(RCTL_SYSTEMD_DIR_ENV);

	return d && *d ? d : RCTL_SYSTEMD_DIR;
}

/* The installed unit file: the enable link points at it. */
int rctl_tune_unit_path(char *path, size_t len, struct rctl_err *e)
{
	int i;

	snprintf(path, len, "%s/%s", systemd_dir(), RCTL_TUNE_UNIT);
	if (!access(path, R_OK))
		return 0;
	for (i = 0; unit_dirs[i]; i++) {
		snprintf(path, len, "%s/%s", unit_dirs[i], RCTL_TUNE_UNIT);
		if (!access(path, R_OK))
			return 0;
	}
	return rctl_err_plain(e, ENOENT, "cannot persist: unit '%s' is not installed in %s "
			    "or the systemd unit directories ('make install' installs it)",
			    RCTL_TUNE_UNIT, systemd_dir());
}

static int mkdir_one(const char *path, struct rctl_err *e)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return rctl_err_strerror(e, errno, "cannot create '%s'", path);
	return 0;
}

/* What $ROCECTL_TUNE_ARGS may hold: it is split at whitespace, not unquoted. */
static bool plain_word(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_.:/@-") == strlen(s);
}

/*
 * A value inside "..." of a unit file line (systemd.syntax(7) quoting,
 * systemd.unit(5) specifiers): backslash and quote escaped, % doubled.
 * Control characters cannot be carried: the caller refuses them.
 */
static int quote(char *out, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s; s++) {
		const char *rep = *s == '\\' ? "\\\\" : *s == '"' ? "\\\"" :
				  *s == '%' ? "%%" : NULL;
		size_t k = rep ? 2 : 1;

		if (n + k >= len)
			return -ENAMETOOLONG;
		memcpy(out + n, rep ? rep : s, k);
		n += k;
	}
	out[n] = '\0';
	return 0;
}

/*
 * A path systemd takes in Environment=: printable UTF-8. systemd ignores an
 * assignment that is not valid UTF-8 (with a warning in the journal only),
 * and the boot would then apply /etc/rocectl.conf instead, silently.
 */
static const char *path_flaw(const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	size_t n;

	while (p < end) {
		if (*p < ' ' || *p == 0x7f || (p[0] == 0xc2 && p + 1 < end && p[1] < 0xa0))
			return "a control character";
		n = *p < 0x80 ? 1 : rctl_utf8_len(p, (size_t)(end - p));
		if (!n)
			return "bytes that are not UTF-8";
		p += n;
	}
	return NULL;
}

/* The config file as the boot will find it: absolute, a regular file, printable. */
static int boot_conf(const char *conf, char *abs, size_t len, struct rctl_err *e)
{
	char cwd[PATH_MAX];
	struct stat st;
	const char *flaw;

	if (conf[0] == '/')
		snprintf(abs, len, "%s", conf);
	else if (!getcwd(cwd, sizeof(cwd)))
		return rctl_err_strerror(e, errno, "cannot persist config '%s': no working directory", conf);
	else if (snprintf(abs, len, "%s/%s", cwd, conf) >= (int)len)
		return rctl_err_strerror(e, ENAMETOOLONG, "cannot persist config '%s'", conf);
	flaw = path_flaw(abs);
	if (flaw)
		return rctl_err_plain(e, EINVAL, "cannot persist config '%s': its path holds %s",
				    conf, flaw);
	if (stat(abs, &st))
		return rctl_err_strerror(e, errno, "cannot persist config '%s'", abs);
	if (!S_ISREG(st.st_mode))
		return rctl_err_plain(e, EINVAL, "cannot persist config '%s': not a regular file", abs);
	return 0;
}

/* Whether a config section sets key k: the boot-time apply must take it from the file. */
static bool in_section(const struct rctl_intent *in, enum rctl_intent_key k)
{
	uint32_t i;

	if (in->src[k].level == RCTL_LVL_OPTION)
		return false;
	for (i = 0; i < in->n_sec; i++)
		if (in->sec[i].set & 1u << k)
			return true;
	return false;
}

/* " --NAME VALUE" of key k unless a section sets it (then ROCECTL_CONF carries it). */
static void boot_arg(const struct rctl_intent *in, enum rctl_intent_key k, const char *opt,
		     char *buf, size_t len, size_t *o)
{
	char v[32];

	if (in_section(in, k) || *o >= len)
		return;
	*o += snprintf(buf + *o, len - *o, " --%s %s", opt, rctl_intent_value(in, k, v, sizeof(v)));
}

/*
 * The intent as options: numbers, a profile name and a plain device name;
 * the RoCE mode only when not the profile's, and no value a config section
 * sets for some ports (an option would override the section at boot).
 */
static int boot_args(const struct rctl_intent *in, const char *dev, bool force,
		     char *buf, size_t len, struct rctl_err *e)
{
	size_t o;

	if (!plain_word(in->profile))
		return rctl_err_plain(e, EINVAL, "cannot persist profile '%s'", in->profile);
	if (dev && !plain_word(dev))
		return rctl_err_plain(e, EINVAL, "cannot persist --dev '%s': not a plain device "
				    "name (letters, digits, _.:/@-)", dev);
	o = (size_t)snprintf(buf, len, "--profile %s", in->profile);
	boot_arg(in, RCTL_IK_PRIO, "prio", buf, len, &o);
	boot_arg(in, RCTL_IK_DSCP, "dscp", buf, len, &o);
	boot_arg(in, RCTL_IK_CNP_PRIO, "cnp-prio", buf, len, &o);
	boot_arg(in, RCTL_IK_CNP_DSCP, "cnp-dscp", buf, len, &o);
	boot_arg(in, RCTL_IK_TOS, "tos", buf, len, &o);
	boot_arg(in, RCTL_IK_MTU, "mtu", buf, len, &o);
	if (in->src[RCTL_IK_ROCE_MODE].level != RCTL_LVL_DEFAULT)
		boot_arg(in, RCTL_IK_ROCE_MODE, "roce-mode", buf, len, &o);
	if (o < len)
		o += snprintf(buf + o, len - o, "%s%s%s", dev ? " --dev " : "", dev ? dev : "",
			      force ? " --force" : "");
	if (o >= len)
		return rctl_err_strerror(e, ENAMETOOLONG, "cannot persist the intent");
	return 0;
}

int rctl_tune_dropin_text(const struct rctl_intent *in, const char *dev, bool force,
			  char *text, size_t len, struct rctl_err *e)
{
	char args[512], conf[PATH_MAX], qconf[2 * PATH_MAX], stamp[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	int ret;

	ret = boot_args(in, dev, force, args, sizeof(args), e);
	if (!ret && in->conf[0])
		ret = boot_conf(in->conf, conf, sizeof(conf), e);
	if (!ret && in->conf[0] && quote(qconf, sizeof(qconf), conf))
		ret = rctl_err_strerror(e, ENAMETOOLONG, "cannot persist config '%s'", conf);
	if (ret)
		return ret;
	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (snprintf(text, len,
		     "# Written by 'rocectl tune apply --persist' at %s;\n"
		     "# 'rocectl tune revert' removes it. See rocectl-tune(8).\n"
		     "[Service]\nEnvironment=\"ROCECTL_TUNE_ARGS=%s\"\n%s%s%s", stamp, args,
		     in->conf[0] ? "Environment=\"ROCECTL_CONF=" : "", in->conf[0] ? qconf : "",
		     in->conf[0] ? "\"\n" : "") >= (int)len)
		return rctl_err_strerror(e, ENAMETOOLONG, "cannot persist the intent");
	return 0;
}

int rctl_tune_persist(const struct rctl_intent *in, const char *dev, bool force,
		      char *dropin, size_t len, struct rctl_err *e)
{
	char unit[PATH_MAX], dir[PATH_MAX], link[PATH_MAX], text[4 * PATH_MAX];
	int ret;

	ret = rctl_tune_unit_path(unit, sizeof(unit), e);
	if (!ret)
		ret = rctl_tune_dropin_text(in, dev, force, text, sizeof(text), e);
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s/%s.d", systemd_dir(), RCTL_TUNE_UNIT);
	snprintf(dropin, len, "%s/%s", dir, DROPIN_NAME);
	ret = mkdir_one(dir, e);
	if (!ret)
		ret = rctl_write_atomic(dropin, text, strlen(text), e);
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s/multi-user.target.wants", systemd_dir());
	snprintf(link, sizeof(link), "%s/%s", dir, RCTL_TUNE_UNIT);
	ret = mkdir_one(dir, e);
	if (ret)
		return ret;
	if (unlink(link) && errno != ENOENT)
		return rctl_err_strerror(e, errno, "cannot replace '%s'", link);
	if (symlink(unit, link))
		return rctl_err_strerror(e, errno, "cannot enable '%s': symlink '%s'", RCTL_TUNE_UNIT, link);
	return 0;
}

static int remove_one(const char *path, bool *removed, struct rctl_err *e)
{
	if (!unlink(path)) {
		*removed = true;
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	return rctl_err_strerror(e, errno, "cannot remove '%s'", path);
}

int rctl_tune_unpersist(bool *removed, struct rctl_err *e)
{
	char path[PATH_MAX];
	int ret;

	*removed = false;
	snprintf(path, sizeof(path), "%s/multi-user.target.wants/%s", systemd_dir(),
		 RCTL_TUNE_UNIT);
	ret = remove_one(path, removed, e);
	snprintf(path, sizeof(path), "%s/%s.d/%s", systemd_dir(), RCTL_TUNE_UNIT, DROPIN_NAME);
	if (!ret)
		ret = remove_one(path, removed, e);
	snprintf(path, sizeof(path), "%s/%s.d", systemd_dir(), RCTL_TUNE_UNIT);
	rmdir(path);	/* only when empty: another drop-in of the admin stays */
	return ret;
}
