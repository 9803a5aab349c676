/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every field of the host model once more, by JSON key (lib/model_fields.c):
 * the tables the schema engine runs to write, read and free a struct
 * rctl_host, so adding a model field is one line there.
 */
#ifndef ROCECTL_MODEL_FIELDS_H
#define ROCECTL_MODEL_FIELDS_H

#include "rocectl/schema.h"

extern const struct rctl_schema rctl_host_schema;

#endif
