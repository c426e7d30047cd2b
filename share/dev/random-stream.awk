# random-stream.awk: a random pb stream for share/dev/same-output.
#   awk -v seed=N -f share/dev/random-stream.awk >FILE
# Mostly well formed (raw pb-run streams, pair streams, by-run streams,
# plain numeric ones), with comments of every kind pb reads, and now and
# then a fault: a bad number, a missing or extra field, a CR, a NUL-free
# control byte, a value that begins with '#', no final line feed, huge,
# tiny, zero and negative values, a pair twice. Deterministic per seed.
function pick(n) { return int(rand() * n) }
function chance(p) { return rand() < p }
function num(   r) {
	r = pick(40)
	if (r == 0) return "1e308"
	if (r == 1) return "-1e308"
	if (r == 2) return "1e-300"
	if (r == 3) return "0"
	if (r == 4) return "-" (1 + pick(1000))
	if (r == 5) return "x" pick(9)
	if (r == 6) return ""
	if (r == 7) return "nan"
	if (r == 8) return "0x1p3"
	if (r == 9) return (1 + pick(9)) "." pick(1000) "e" (pick(30) - 15)
	return 1000 + pick(200) + (chance(0.3) ? pick(100) / 100 : 0)
}
function good() { return !faulty || chance(0.9) }
function value() { return good() ? 1000 + pick(500) : num() }
function stamp(run, k) {
	return sprintf("2026-11-30T%02d:%02d:%02d.%03dZ", 5 + run % 10, k % 60, pick(60), pick(1000))
}
function comment(   r, t) {
	r = pick(12)
	if (r == 0) return "# run: " run " start=" stamp(run, pick(60)) " pid=" (100 + pick(5)) \
		(chance(0.7) ? " study=" sprintf("%016x", 255 + pick(3)) : "") \
		(chance(0.7) ? " host=h" pick(3) (chance(0.1) ? " with space" : "") : "")
	if (r == 1) return "# pb-pair.warning: run " run " has fewer pairs" (chance(0.3) ? "\\n forged" : "")
	if (r == 2) return "# log_ratio: " (chance(0.5) ? "d" : "x") " = ln(a/b); A is the baseline"
	if (r == 3) return "# failed: run " run " pair 1 (measure) arm B: boom"
	if (r == 4) return "# run_ended: run " run " pair 2 (measure) arm A: worker died"
	if (r == 5) return "# interrupted: SIGINT in run " run "; 3 pairs written"
	if (r == 6) return "# note: back\\\\slash \\t tab \\n newline"
	if (r == 7) return "#no space" pick(9)
	if (r == 8) return "# pairs: " (1 + pick(5))
	if (r == 9) return "# warmup: " pick(3)
	if (r == 10) return "# pb-boot.warning: \t raw tab"
	return "# cmd_a: ./old" (chance(0.2) ? "2" : "")
}
function field_fault(f,   r) {
	r = pick(8)
	if (r == 0) return "#" f
	if (r == 1) return f "\r"
	if (r == 2) return f "\t" f
	if (r == 3) return ""
	if (r == 4) return f "\001"
	if (r == 5) return f " "
	if (r == 6) return "+" f
	return num()
}
function row(s,   n, i, f, out) {
	if (!faulty || !chance(0.05))
		return s
	n = split(s, f, "\t")
	i = 1 + pick(n)
	if (chance(0.2)) { out = ""; for (i = 1; i < n; i++) out = out (i > 1 ? "\t" : "") f[i]; return out }
	f[i] = field_fault(f[i])
	out = f[1]
	for (i = 2; i <= n; i++) out = out "\t" f[i]
	return out
}
function emit(s) { lines[++nl] = s }
function head(   i) {
	emit("# pb-run: 0.1.0 pb-run --runs " runs " --pairs " pairs " -- ./old ./new")
	emit("# mode: command")
	emit("# pairs: " pairs)
	emit("# warmup: " warmup)
	for (i = pick(3); i > 0; i--) emit(comment())
}
function raw(   r, p, ph, first, n, x, pos, arm, hdr) {
	hdr = "run\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus"
	if (chance(0.2)) hdr = hdr "\textra"
	emit(hdr)
	for (r = first_run; r < first_run + runs; r++) {
		run = r
		emit("# run: " r " start=" stamp(r, r) " pid=" (100 + r) " study=00000000000000ff host=h" (r % 2))
		for (ph = 0; ph < 2; ph++) {
			n = ph ? pairs : warmup
			if (ph && chance(0.1)) n -= 1 + pick(2)
			for (p = 1; p <= n; p++) {
				first = pick(2)
				for (pos = 1; pos <= 2; pos++) {
					arm = (pos == 1) == (first == 0) ? "A" : "B"
					x = r "\t" p "\t" (ph ? "measure" : "warmup") "\t" arm "\t" pos "\t" \
					    (arm == "B" ? delay : 0) "\t" value() "\t" (chance(0.02) ? 1 : 0)
					if (hdr ~ /extra/) x = x "\tv" pick(3)
					emit(row(x))
				}
				if (chance(0.02)) emit(comment())
			}
		}
	}
}
function pairs_stream(by_run,   r, p, a, b, hdr, lr, x, n) {
	lr = chance(0.5)
	hdr = by_run ? "run\tn\ta\tb\td\tdelay" : "run\tpair\tfirst\ta\tb\td\tdelay"
	if (lr) hdr = hdr "\tlr"
	if (chance(0.15)) hdr = hdr "\tgrp"
	emit(hdr)
	for (r = first_run; r < first_run + runs; r++) {
		run = r
		if (chance(0.5)) emit("# run: " r " start=" stamp(r, r * 3) " pid=" (100 + r))
		n = by_run ? 1 : pairs
		for (p = 1; p <= n; p++) {
			a = value(); b = value()
			if (chance(0.3)) b = a + pick(50) - 10
			x = r "\t" (by_run ? pairs : p "\t" (pick(2) ? "A" : "B")) "\t" a "\t" b "\t" \
			    (b - a) "\t" delay
			if (lr) x = x "\t" ((a + 0 > 0 && b + 0 > 0) ? log(a / b) : num())
			if (hdr ~ /grp/) x = x "\t" (chance(0.05) ? "" : "g" pick(3))
			emit(row(x))
			if (chance(0.01)) emit(comment())
		}
	}
}
function plain(   i, n, c, hdr, x, j) {
	c = 1 + pick(4)
	hdr = "d"
	for (j = 2; j <= c; j++) hdr = hdr "\tc" j
	if (chance(0.5)) hdr = "run\t" hdr
	emit(chance(0.03) ? hdr "\td" : hdr)
	n = pick(30)
	for (i = 1; i <= n; i++) {
		x = ""
		if (hdr ~ /^run/) x = (1 + pick(4)) "\t"
		x = x value()
		for (j = 2; j <= c; j++) x = x "\t" value()
		emit(row(x))
	}
}
BEGIN {
	srand(seed)
	faulty = chance(0.35)
	runs = 1 + pick(chance(0.2) ? 12 : 4)
	pairs = 1 + pick(6)
	warmup = pick(3)
	first_run = chance(0.8) ? 1 : 1 + pick(20)
	delay = chance(0.7) ? 0 : (chance(0.5) ? 100 : -100)
	kind = pick(4)
	head()
	if (kind == 0) raw()
	else if (kind == 1) pairs_stream(0)
	else if (kind == 2) pairs_stream(1)
	else plain()
	if (chance(0.02)) nl = 0          # empty input
	else if (chance(0.02)) nl = 5     # header, or not even that
	for (i = 1; i <= nl; i++)
		printf "%s%s", lines[i], (i < nl || !chance(0.05)) ? "\n" : ""
}
