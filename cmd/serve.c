// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl serve: the responder "rocectl reach" and "rocectl bench rdma" talk
 * to (lib/serve.c); options and the event printer.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>

#include "cmd.h"
#include "rocectl/out.h"
#include "rocectl/probe.h"
#include "rocectl/serve.h"

static struct {
	const char *bind, *token_file;
	int port, max_clients, max_per_peer;
	double lifetime;
	struct rctl_opt_list allow;
} so = { .bind = "0.0.0.0", .port = RCTL_PROBE_PORT, .max_clients = 16, .max_per_peer = 8,
	 .lifetime = 300 };

static const struct rctl_opt serve_opts[] = {
	{ .name = "bind", .short_name = 'b', .type = OPT_STR, .arg = "ADDR", .dst = &so.bind,
	  .help = "listen on this local address (default 0.0.0.0)" },
	{ .name = "port", .short_name = 'P', .type = OPT_INT, .arg = "PORT", .dst = &so.port,
	  .min = 1, .max = 65535, .help = "rdma_cm and TCP control port (default 18520)" },
	{ .name = "max-clients", .type = OPT_INT, .arg = "N", .dst = &so.max_clients,
	  .min = 1, .max = RCTL_SERVE_MAX_CLIENTS, .help = "clients served at once (default 16)" },
	{ .name = "max-per-peer", .type = OPT_INT, .arg = "N", .dst = &so.max_per_peer,
	  .min = 1, .max = RCTL_SERVE_MAX_CLIENTS,
	  .help = "of those, clients from one address (default 8)" },
	{ .name = "lifetime", .type = OPT_SECS, .arg = "SECS", .dst = &so.lifetime,
	  .max = 86400, .help = "disconnect a client after this long (default 300)" },
	{ .name = "allow", .type = OPT_LIST, .arg = "CIDR", .dst = &so.allow,
	  .help = "serve only peers in this network (repeatable; default every peer)" },
	{ .name = "token-file", .type = OPT_STR, .arg = "FILE", .dst = &so.token_file,
	  .kind = ARG_FILE, .help = "serve only clients that send the token in FILE" },
	{ 0 }
};

static volatile sig_atomic_t serve_stop;

static void on_signal(int sig)
{
	(void)sig;
	serve_stop = 1;
}

static void serve_event(void *arg, const struct rctl_serve_event *ev)
{
	static const char *const kinds[] = {
		[RCTL_SERVE_LISTEN] = "listening", [RCTL_SERVE_CONNECT] = "connected",
		[RCTL_SERVE_REJECT] = "rejected", [RCTL_SERVE_DISCONNECT] = "disconnected",
	};

	(void)arg;
	out_str(OUT_ANY, "event", "%s", kinds[ev->kind]);
	if (ev->kind == RCTL_SERVE_LISTEN) {
		out_str(OUT_ANY, "bind", " on %s", so.bind);
		out_u64(OUT_ANY, "port", " port %" PRIu64 " (rdma_cm RDMA_PS_TCP and tcp control)",
			(uint64_t)so.port);
		out_str(OUT_ANY, "device", " device %s", ev->dev[0] ? ev->dev : NULL);
	} else {
		out_str(OUT_ANY, "peer", " %s", ev->peer);
	}
	if (ev->kind == RCTL_SERVE_CONNECT) {
		out_str(OUT_ANY, "device", " on %s", ev->dev);
		out_str(OUT_ANY, "mode", " %s", rctl_probe_mode_name(ev->mode));
		out_u64(OUT_ANY, "size_bytes", " %" PRIu64 " B", ev->size);
	}
	if (ev->kind == RCTL_SERVE_DISCONNECT) {
		out_u64(OUT_ANY, "messages", " after %" PRIu64 " messages", ev->messages);
		out_dbl(OUT_ANY, "secs", " in %.1f s", ev->secs);
	}
	if (ev->why)
		out_str(OUT_ANY, "reason", " (%s)", ev->why);
	if (ev->kind == RCTL_SERVE_REJECT && (out_json() || ev->count > 1))
		out_u64(OUT_ANY, "count", " %" PRIu64 " times since the last such line", ev->count);
	if (ev->kind == RCTL_SERVE_REJECT && (out_json() || ev->unreported))
		out_u64(OUT_ANY, "unreported", ", %" PRIu64 " other rejections not logged",
			ev->unreported);
	if (ev->kind != RCTL_SERVE_LISTEN)
		out_u64(OUT_ANY, "clients", " [%" PRIu64 " connected]", ev->clients);
	out_text("\n");
	if (out_json())
		out_flush_doc();
	else
		fflush(stdout);
}

static int do_serve(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct rctl_cidr allow[RCTL_OPT_LIST_MAX];
	uint8_t token[RCTL_TOKEN_LEN];
	struct sockaddr_storage ss;
	struct rctl_err e = { 0 };
	struct rctl_serve_opts o = {
		.bind = (struct sockaddr *)&ss, .max_clients = (unsigned int)so.max_clients,
		.max_per_peer = (unsigned int)so.max_per_peer,
		.lifetime_s = so.lifetime, .allow = allow, .nallow = so.allow.n,
		.stop = &serve_stop,
	};
	unsigned int i;

	(void)argc;
	(void)argv;
	if (rctl_sockaddr_parse(so.bind, (uint16_t)so.port, true, &ss, &e))
		return cmd_error(ctx, RCTL_EXIT_USAGE, &e);
	for (i = 0; i < so.allow.n; i++)
		if (rctl_cidr_parse(so.allow.v[i], &allow[i], &e))
			return cmd_error(ctx, RCTL_EXIT_USAGE, &e);
	if (so.token_file) {
		if (rctl_token_read(so.token_file, token, &e))
			return cmd_error(ctx, RCTL_EXIT_USAGE, &e);
		o.token = token;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (rctl_serve(&o, serve_event, NULL, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	return RCTL_EXIT_OK;
}

const struct rctl_cmd cmd_serve = {
	.name = "serve",
	.summary = "answer 'rocectl reach' and 'rocectl bench rdma' (RC QPs over rdma_cm)",
	.opts = serve_opts,
	.fn = do_serve,
};
