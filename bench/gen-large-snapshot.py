#!/usr/bin/env python3
"""A synthetic host snapshot of PORTS RoCE ports with GIDS GIDs each, for
bench/rules.sh: the mlx5 healthy fixture's device, port and netdev copied,
one device and one netdev per port, each GID an IPv4-mapped RoCE v2 entry
(the largest real GID tables hold a few hundred: 256 on mlx5)."""
import copy
import json
import sys

src, ports, gids = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
doc = json.load(open(src))
host = doc["host"]
dev0, nd0 = host["devices"][0], host["netdevs"][0]
port0 = dev0["ports"][0]
devs, nds = [], []
for p in range(ports):
    name = "ens%dnp0" % p
    nd = copy.deepcopy(nd0)
    nd["name"], nd["ifindex"] = name, 100 + p
    nds.append(nd)
    port = copy.deepcopy(port0)
    port["netdev"], port["netdev_ifindex"] = name, 100 + p
    port["gids"] = []
    for g in range(gids):
        ip = "10.%d.%d.%d" % (p // 256 % 256, p % 256, g)
        port["gids"].append({"index": g, "gid": "::ffff:" + ip, "ip": ip,
                             "type": "RoCE v2", "netdev": name})
    dev = copy.deepcopy(dev0)
    dev["name"], dev["index"], dev["ports"] = "mlx5_%d" % p, p, [port]
    devs.append(dev)
host["devices"], host["netdevs"] = devs, nds
json.dump(doc, sys.stdout, separators=(",", ":"))
