# stage.awk: one pb stream as staging files for load.sql's \copy (the
# text format of COPY: TAB between fields, \N for NULL, backslash
# escapes). Run by load.sh with LC_ALL=C and, in the environment,
#   KIND    raw, pairs, byrun or finding; or "classify": print the kind
#           of the stream ("other" when it is none of them) and stop
#   LABEL   the file's name, for the staging rows and for messages
#   STAGE   the staging directory; this appends to its meta.tsv,
#           runs.tsv and, for the data of KIND, rows-KIND.tsv
# Nothing is interpreted here: load.sql checks and casts every value.
#
# Every "# key: value" comment goes to meta.tsv with where it was: the
# head or among the rows, and the number of the pb-run block it belongs
# to (a head holds one "# pb-run:" line per raw stream read, each
# followed by that run's metadata until the next tool's "# pb-TOOL:"
# line; 0 outside such a block). Every "# run:" comment goes to runs.tsv,
# its named words split (host= last, the rest of the line). The rows of
# KIND go to rows-KIND.tsv, their columns found by name.

BEGIN {
	FS = OFS = "\t"
	kind = ENVIRON["KIND"]; label = ENVIRON["LABEL"]; stage = ENVIRON["STAGE"]
	want["raw"] = "run pair phase arm pos delay_ns ns status"
	want["pairs"] = "run pair first a b d delay"
	want["byrun"] = "run n a b d delay"
	want["finding"] = "n mean sd se df t lo hi ratio ratio_lo ratio_hi reduction"
	# what a finding may have beyond want[]: anything else is a group
	# column (pb-tint --group), and the history keeps the overall finding
	extra["verdict"] = 1
	head = 1; block = 0; inblock = 0
	flabel = esc_field(label)
	if (kind != "classify") {
		meta = stage "/meta.tsv"; runs = stage "/runs.tsv"; rows = stage "/rows-" kind ".tsv"
	}
}

# esc_field S: S as a COPY text field, every byte as it is. (A loop, not
# gsub: awks disagree on backslashes in gsub's replacement.)
function esc_field(s,    out, i, c) {
	if (s !~ /[\\\t\r]/)
		return s
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		out = out (c == "\\" ? "\\\\" : c == "\t" ? "\\t" : c == "\r" ? "\\r" : c)
	}
	return out
}

# esc_meta S: a metadata value, escaped by pb (\\ \n \r \t), as a COPY
# text field that COPY unescapes to the value pb escaped. A backslash
# that starts none of pb's escapes stands for itself; a raw TAB or CR
# (pb writes none) is kept as it is.
function esc_meta(s,    out, i, c, nx) {
	if (s !~ /[\\\t\r]/)
		return s
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\") {
			nx = substr(s, i + 1, 1)
			if (nx == "\\" || nx == "n" || nx == "r" || nx == "t") {
				out = out c nx; i++
			} else
				out = out "\\\\"
		} else if (c == "\t")
			out = out "\\t"
		else if (c == "\r")
			out = out "\\r"
		else
			out = out c
	}
	return out
}

function has_all(list,    w, n, i) {
	n = split(list, w, " ")
	for (i = 1; i <= n; i++)
		if (!(w[i] in col))
			return 0
	return 1
}

function classify(    k, i) {
	if (has_all(want["raw"])) return "raw"
	if (has_all(want["pairs"])) return "pairs"
	if (has_all(want["byrun"])) return "byrun"
	if (has_all(want["finding"])) {
		for (i = 1; i <= ncol; i++) {
			k = name[i]
			if (index(" " want["finding"] " ", " " k " ") == 0 && !(k in extra))
				return "grouped"
		}
		return "finding"
	}
	return "other"
}

# "# run: R start=... pid=... study=... host=REST"
function run_comment(line,    rest, run, host, at, n, w, i, v, word) {
	rest = substr(line, 8)
	host = "\\N"
	if ((at = index(rest, " host=")) > 0) {
		host = esc_meta(substr(rest, at + 6)); rest = substr(rest, 1, at - 1)
	}
	n = split(rest, w, " ")
	run = n >= 1 ? w[1] : ""
	delete v
	for (i = 2; i <= n; i++)
		if ((at = index(w[i], "=")) > 1)
			v[substr(w[i], 1, at - 1)] = substr(w[i], at + 1)
	print flabel, kind, NR, esc_field(run), \
		("start" in v ? esc_field(v["start"]) : "\\N"), \
		("pid" in v ? esc_field(v["pid"]) : "\\N"), \
		("study" in v ? esc_field(v["study"]) : "\\N"), host >>runs
}

/^#/ {
	if (kind == "classify")
		next
	if (substr($0, 1, 7) == "# run: ") {
		run_comment($0)
		next
	}
	if (match($0, /^# [a-z_][a-z0-9_.-]*:( |$)/)) {
		key = substr($0, 3, RLENGTH - 3 - (substr($0, RLENGTH, 1) == " "))
		value = substr($0, RLENGTH + 1)
		if (head) {
			if (key == "pb-run") {
				block++; inblock = 1
			} else if (key ~ /^pb-[a-z]+$/)
				inblock = 0
		}
		print flabel, kind, NR, (head ? "t" : "f"), (head && inblock ? block : 0), \
			key, esc_meta(value) >>meta
	}
	next
}

head {
	head = 0
	ncol = split($0, name, "\t")
	for (i = 1; i <= ncol; i++)
		col[name[i]] = i
	if (kind == "classify") {
		print classify()
		exit
	}
	nwant = split(want[kind], wcol, " ")
	if (kind == "finding")
		wcol[++nwant] = "verdict"
	next
}

kind != "raw" {
	line = flabel "\t" NR
	for (i = 1; i <= nwant; i++) {
		f = wcol[i] in col ? $(col[wcol[i]]) : ""
		line = line "\t" (f == "" ? "\\N" : esc_field(f))
	}
	print line >>rows
}

END {
	if (kind == "classify" && head)
		print "other"
}
