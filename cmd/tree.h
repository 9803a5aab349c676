/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command tree (cmd/tree.c), as the dispatcher in cmd/main.c reads it.
 * Command files never include this: they see cmd.h only.
 */
#ifndef ROCECTL_CMD_TREE_H
#define ROCECTL_CMD_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd.h"

/* The global options' values, set by parsing cmd_global_opts. */
struct cmd_global {
	bool json, pretty, verbose, quiet, version, help;
};
extern struct cmd_global cmd_global;
extern const struct rctl_opt cmd_global_opts[];
/* --input FILE of a .host_input command. */
extern const char *cmd_input;
/* Every --input of a .host_inputs command (check, doctor: a fleet). */
extern struct rctl_opt_list cmd_inputs;

/* The top of the tree: "rocectl" and its commands. */
extern const struct rctl_cmd cmd_root;

/*
 * The options of command c: its table, plus --input when its entry has
 * .host_input (built once, kept until exit).
 */
const struct rctl_opt *cmd_opts(const struct rctl_cmd *c);

/* Walk argv words to a command; path gets the words joined by spaces, *bad an unknown one. */
const struct rctl_cmd *cmd_walk(char **words, int n, int *used,
				char *path, size_t len, const char **bad);

/* The help of command c (path: its words) on f. */
void cmd_print_help(FILE *f, const char *path, const struct rctl_cmd *c);

#endif
