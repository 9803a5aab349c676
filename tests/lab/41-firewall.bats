#!/usr/bin/env bats
# rocectl check firewall on the real Soft-RoCE hosts (docs/roce-facts.md, "Firewall"): rxe sends RoCE v2
# through the kernel's UDP stack, so a netfilter drop of UDP 4791 really cuts
# it, and the check fails on the rxe port behind the dropping netdev; the fix
# it prints removes the rule; without the rule the area passes.

bats_require_minimum_version 1.5.0

load lab

# Non-pass findings as "id:status:target".
not_passed() {
	jq -r '.findings[] | select(.status != "pass") | "\(.id):\(.status):\(.target)"'
}

@test "knob_drop_roce: firewall.roce_udp fails on both rxe ports, with the rule and its fix" {
	knob_drop_roce
	run -2 --separate-stderr timeout 30 "$ROCECTL" check firewall -j
	run -0 not_passed <<<"$output"
	assert_output "$(printf 'firewall.roce_udp:fail:%s/1 (%s)\n' "$LAB_A_DEV" "$LAB_A_IF" "$LAB_B_DEV" "$LAB_B_IF")"
	run -2 timeout 30 "$ROCECTL" check firewall --dev "$LAB_A_DEV"
	assert_line "firewall   0 warnings, 1 errors"
	assert_line --regexp "^ +a netfilter rule drops UDP 4791 on '$LAB_A_IF': it blocks Soft-RoCE"
	assert_line --regexp "^ +evidence: nft inet $LAB_NFT_TABLE input handle [0-9]+: udp dport 4791 drop$"
	# The fix is the exact command: run it as printed, and the check passes.
	local fix
	fix=$(sed -n 's/^ *fix: //p' <<<"$output")
	[[ $fix == "nft delete rule inet $LAB_NFT_TABLE input handle "* ]]
	read -ra argv <<<"$fix"
	"${argv[@]}"
	run -0 timeout 30 "$ROCECTL" check firewall --dev "$LAB_A_DEV"
}

@test "knob_drop_roce IF: only the rxe port on that netdev fails" {
	knob_drop_roce "$LAB_B_IF"
	run -2 --separate-stderr timeout 30 "$ROCECTL" check firewall -j
	run -0 not_passed <<<"$output"
	assert_output "firewall.roce_udp:fail:$LAB_B_DEV/1 ($LAB_B_IF)"
}

@test "knob_restore_roce: check firewall passes, and doctor has the firewall area" {
	knob_drop_roce
	knob_restore_roce
	run -0 timeout 30 "$ROCECTL" check firewall
	assert_line "firewall   passed"
	# ToS 0 warns: the warning decides the exit, not the unknowns beside it
	run -1 --separate-stderr timeout 60 "$ROCECTL" doctor -j --no-sample --mtu 1024
	echo "$output" | jq -e '[.areas[] | select(.area == "firewall")] | length == 1 and .[0].fail == 0 and
		.[0].unknown == 0 and .[0].pass >= 2'
}

# How many times "$@" ran nft (strace's execve trace); its stdout goes to $BATS_TEST_TMPDIR/out.
nft_runs() {
	local st=0
	strace -f -qq -e trace=execve -o "$BATS_TEST_TMPDIR/exec" "$@" >"$BATS_TEST_TMPDIR/out" || st=$?
	echo "status $st nft $(grep -c '^[0-9]* *execve("[^"]*/nft"' "$BATS_TEST_TMPDIR/exec")"
}

# Out of the kernel with every module that holds it, holders first.
unload_module() {
	local h
	for h in /sys/module/"$1"/holders/*; do
		if [ -e "$h" ]; then
			unload_module "${h##*/}" || return 1
		fi
	done
	rmmod "$1"
}

@test "nft runs only when a rule exists: none without nf_tables (left unloaded), none for an empty ruleset" {
	knob_restore_roce
	knob_hop_mtu_clear
	unload_module nf_tables
	[ ! -e /sys/module/nf_tables ]
	run -0 nft_runs "$ROCECTL" check firewall -j
	assert_output "status 0 nft 0"
	jq -e '.findings | length > 0 and all(.status == "pass")' "$BATS_TEST_TMPDIR/out"
	# Reading loaded nothing: asking nft would have loaded nf_tables.
	[ ! -e /sys/module/nf_tables ]
	modprobe nf_tables
	run -0 nft_runs "$ROCECTL" check firewall -j
	assert_output "status 0 nft 0"
	knob_drop_roce
	run -0 nft_runs "$ROCECTL" check firewall -j
	assert_output "status 2 nft 1"
	jq -e '[.findings[] | select(.status == "fail")] | length == 2' "$BATS_TEST_TMPDIR/out"
}
