#!/usr/bin/env bats
# prometheus/grafana/rocectl.json against a real Prometheus: node_exporter
# serves rocectl's textfiles of fixture hosts (a fleet file and a host's
# counters), Prometheus (Debian's) scrapes it every second, both on 127.0.0.1
# only, and every panel's PromQL is evaluated through the HTTP API: each
# returns series with the labels its legend uses, and faults move the panels
# they should.
load helpers

DASH=$ROOT/prometheus/grafana/rocectl.json

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_http URL: up to 20 s for an answer
wait_http() {
	local i
	for i in $(seq 200); do
		curl -sf "$1" >/dev/null && return 0
		sleep 0.1
	done
	return 1
}

setup() {
	command -v prometheus prometheus-node-exporter
	local t=$BATS_TEST_TMPDIR f=$FIXTURES
	mkdir "$t/textfile" "$t/tsdb"
	jq '.host.hostname = "nfault"' "$f/fault-pfc-off-prio3.json" >"$t/nfault.json"
	jq '.host.hostname = "nloss"' "$f/fault-out-of-sequence-rising.json" >"$t/nloss.json"
	jq '.host.hostname = "nok"' "$f/mlx5-peer-healthy.json" >"$t/nok.json"
	rocectl doctor -o prometheus -O "$t/textfile/rocectl-fleet.prom" -i "$t/nfault.json" \
		-i "$t/nloss.json" -i "$t/nok.json"
	rocectl counters -o prometheus -O "$t/textfile/counters.prom" -i "$f/mlx5-upstream-healthy.json"
	NE=$(free_port)
	prometheus-node-exporter --web.listen-address="127.0.0.1:$NE" --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$t/textfile" >"$t/ne.log" 2>&1 &
	echo $! >"$t/ne.pid"
	wait_http "http://127.0.0.1:$NE/metrics"
	PROM=$(free_port)
	printf 'global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: ["%s"]\nscrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' \
		"$ROOT/prometheus/rocectl.rules.yml" "$NE" >"$t/prometheus.yml"
	prometheus --config.file="$t/prometheus.yml" --storage.tsdb.path="$t/tsdb" \
		--web.listen-address="127.0.0.1:$PROM" >"$t/prom.log" 2>&1 &
	echo $! >"$t/prom.pid"
	wait_http "http://127.0.0.1:$PROM/-/ready"
}

# Both daemons are children of setup's shell, not of this one: their ends are awaited by pid, bounded.
teardown() {
	local f pid
	for f in prom.pid ne.pid; do
		[ -f "$BATS_TEST_TMPDIR/$f" ] || continue
		read -r pid <"$BATS_TEST_TMPDIR/$f"
		if kill "$pid" 2>/dev/null; then
			timeout 10 tail --pid="$pid" -f /dev/null
		fi
	done
}

# query EXPR: the result vector of an instant query, as JSON
query() {
	curl -sf "http://127.0.0.1:$PROM/api/v1/query" --data-urlencode "query=$1" |
		jq -e '.status == "success"' >/dev/null || return 1
	curl -sf "http://127.0.0.1:$PROM/api/v1/query" --data-urlencode "query=$1" | jq -c '.data.result'
}

# until EXPR returns a series (up to 30 s: the first scrapes, a rate's two samples)
until_series() {
	local i
	for i in $(seq 60); do
		[ "$(query "$1" | jq length)" -gt 0 ] && return 0
		sleep 0.5
	done
	echo "no series for: $1"
	return 1
}

@test "every panel's PromQL returns series with the labels of its legend" {
	local n expr legend labels l result
	n=$(jq '[.panels[].targets[]] | length' "$DASH")
	[ "$n" -ge 7 ]
	until_series 'up{job="node"} == 1'
	# two scrapes at least, for the rates
	sleep 2.5
	for i in $(seq 0 $((n - 1))); do
		expr=$(jq -r "[.panels[].targets[]][$i].expr" "$DASH")
		legend=$(jq -r "[.panels[].targets[]][$i].legendFormat" "$DASH")
		until_series "$expr"
		result=$(query "$expr")
		labels=$(grep -o '{{[a-z_]*}}' <<<"$legend" | tr -d '{}')
		for l in $labels; do
			# instance comes from the scrape; the others from rocectl, and host only on fleet series
			[ "$l" = host ] && continue
			jq -e --arg l "$l" 'all(.[]; .metric | has($l))' <<<"$result" >/dev/null ||
				{ echo "panel expr '$expr': a series without label '$l': $result"; return 1; }
		done
	done
	# the fleet's series carry host, the verdict panel has every host of the fleet
	result=$(query "$(jq -r '.panels[] | select(.title == "Verdict per host and area") | .targets[0].expr' "$DASH")")
	[ "$(jq -r '[.[].metric.host] | unique | join(" ")' <<<"$result")" = "nfault nloss nok" ]
}

@test "faults move their panels: a failed PFC, a loss rate above the budget, a PFC storm, CNPs" {
	local expr
	until_series 'up{job="node"} == 1'
	expr=$(jq -r '.panels[] | select(.title == "Verdict per host and area") | .targets[0].expr' "$DASH")
	until_series "$expr"
	query "$expr" | jq -e '(.[] | select(.metric.host == "nfault" and .metric.area == "pfc") | .value[1]) == "2"'
	query "$expr" | jq -e '(.[] | select(.metric.host == "nok" and .metric.area == "pfc") | .value[1]) == "0"'
	expr=$(jq -r '.panels[] | select(.title == "Hosts that are not ok") | .targets[0].expr' "$DASH")
	[ "$(query "$expr" | jq -r '[.[].metric.host] | sort | join(" ")')" = "nfault nloss" ]
	expr=$(jq -r '.panels[] | select(.title == "Loss rate against the budget") | .targets[0].expr' "$DASH")
	query "$expr" | jq -e '(.[] | select(.metric.host == "nloss") | .value[1] | tonumber) > 1 and
		(.[] | select(.metric.host == "nok") | .value[1] | tonumber) < 1'
	expr=$(jq -r '.panels[] | select(.title == "Switch port of each host (LLDP)") | .targets[0].expr' "$DASH")
	query "$expr" | jq -e '.[] | select(.metric.host == "nok") | .metric.switch == "leaf-07" and
		.metric.switch_port == "Ethernet1/7"'
	# the counters move: 50 s paused on priority 3 (tx) and a million CNPs sent, within a few scrapes
	sleep 2.5
	awk '/^rocectl_pfc_pause_duration_seconds_total\{.*direction="tx",priority="3"\}/ { $2 += 50 }
	     /^rocectl_rdma_hw_events_total\{.*counter="np_cnp_sent"/ { $2 += 1000000 } { print }' \
		"$BATS_TEST_TMPDIR/textfile/counters.prom" >"$BATS_TEST_TMPDIR/c.tmp"
	mv "$BATS_TEST_TMPDIR/c.tmp" "$BATS_TEST_TMPDIR/textfile/counters.prom"
	expr=$(jq -r '.panels[] | select(.title == "Share of time paused per priority") | .targets[0].expr' "$DASH")
	until_series "($expr) > 0"
	query "($expr) > 0" | jq -e 'length == 1 and .[0].metric.priority == "3" and .[0].metric.direction == "tx"'
	expr=$(jq -r '.panels[] | select(.title == "CNP and ECN rates") | .targets[0].expr' "$DASH")
	until_series "($expr) > 0"
	query "($expr) > 0" | jq -e 'length == 1 and .[0].metric.counter == "np_cnp_sent"'
}
