#!/usr/bin/env python3
"""A synthetic host snapshot for bench/rules.sh: PORTS RoCE ports with GIDS
GIDs each, from the healthy upstream mlx5 fixture. Each port has its own
device, its netdev and, unless VLAN is 0, a VLAN 100 above it (with a QoS
map, as RoCE over VLANs is set up) holding the second half of its GIDs: IPv4 (RoCE v1 and v2 of each) with the first of each pair
the netdev's own address. mlx5's GID table holds 256 entries
(MLX5_CAP_ROCE gid_table_size); real tables use a few to a few dozen."""
import copy
import json
import sys

src, ports, gids = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
vlan = len(sys.argv) < 5 or sys.argv[4] != "0"
doc = json.load(open(src))
host = doc["host"]
dev0, nd0 = host["devices"][0], host["netdevs"][0]
port0 = dev0["ports"][0]


def v4(p, half, g):
    return "10.%d.%d.%d" % (p // 256 % 256 + 100 * half, p % 256, g + 1)


devs, nds = [], []
for p in range(ports):
    name = "ens%dnp0" % p
    vname = name + ".100"
    nd = copy.deepcopy(nd0)
    nd["name"], nd["ifindex"] = name, 100 + 2 * p
    nd["addrs"] = [{"ip": v4(p, 0, 0), "prefix": 16, "family": "inet"}]
    vl = copy.deepcopy(nd)
    vl.update(name=vname, ifindex=101 + 2 * p, kind="vlan", vlan_lower=name, vlan_id=100,
              vlan_egress_qos=[0, 0, 0, 3, 0, 0, 0, 0])
    vl["addrs"] = [{"ip": v4(p, 1, 0), "prefix": 16, "family": "inet"}]
    nds += [nd, vl] if vlan else [nd]
    port = copy.deepcopy(port0)
    port["netdev"], port["netdev_ifindex"] = name, nd["ifindex"]
    port["gids"] = []
    for g in range(gids):
        half = int(vlan and g >= gids // 2)
        ip = v4(p, half, (g % (gids // 2 if vlan else gids)) // 2)
        port["gids"].append({"index": g, "gid": "::ffff:" + ip, "ip": ip,
                             "type": "RoCE v1" if g % 2 == 0 else "RoCE v2",
                             "netdev": vname if half else name})
    dev = copy.deepcopy(dev0)
    dev["name"], dev["index"], dev["ports"] = "mlx5_%d" % p, p, [port]
    devs.append(dev)
host["devices"], host["netdevs"] = devs, nds
json.dump(doc, sys.stdout, separators=(",", ":"))
