/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host snapshots (lib/snapshot.c): the host model as a JSON document and
 * back, through the host's field tables (model_fields.h) and the schema
 * engine (schema.h), so adding a model field is one line.
 * Reading rejects anything that is not exactly the schema: another
 * schema_version, wrong types, truncated text. u64 values are exact both ways.
 */
#ifndef ROCECTL_SNAPSHOT_H
#define ROCECTL_SNAPSHOT_H

#include <stdbool.h>

#include "rocectl/err.h"
#include "rocectl/model.h"

/*
 * 2 added the netdev stacking fields (vlan_*, master). A version 1 snapshot
 * reads as a host without VLANs or bonds: the fields it lacks stay zero.
 * 3 moved "hostname" and "time" (now RFC 3339 UTC, was an epoch) out of
 * "host" to the top, as in every rocectl document, and writes unknown
 * (an empty string) as null; versions 1 and 2 are still read.
 * 4 added "rdma_resources": the RDMA consumers and the traffic-class
 * settings they name. An older snapshot reads as a host whose consumers
 * were not collected (rdma_resources ok false, errno 0).
 * It also added "nvme", the kernel's NVMe-oF controllers; an older snapshot
 * reads with that part not collected (ok false, errno 0).
 * It also added "wire", a capture's summary (model.h struct rctl_wire);
 * older snapshots read as a host without a capture.
 */
#define RCTL_SNAPSHOT_VERSION 4
#define RCTL_SNAPSHOT_VERSION_MIN 1

/* The whole snapshot document: schema_version, hostname, time, kind, host. */
char *rctl_snapshot_text(const struct rctl_host *h, bool pretty);
/* Strictly (rctl_json_read()), then through the field tables. */
int rctl_snapshot_parse(const char *text, const char *name, struct rctl_host *h,
			struct rctl_err *e);
int rctl_snapshot_load(const char *path, struct rctl_host *h, struct rctl_err *e);

#endif
