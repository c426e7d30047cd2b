/* pb-report: the options, then lib/report writes the page. */
#include <stdio.h>

#include "err.h"
#include "opt.h"
#include "report.h"

static const char usage[] =
	"usage: pb-report [-o FILE] [--no-derive] DIR\n"
	"Write DIR/report.html: one self-contained page of the study in DIR (the\n"
	"finding, each arm, the runs, pb-check's warnings, the calibration, the plan,\n"
	"the provenance, links to the streams). DIR needs raw.tsv (pb-run) or\n"
	"pairs.tsv (pb-pair); what else is missing is made with the pb tools.\n";

static const struct pb_opt options[] = {
	{ "output", 'o', 'o', "FILE", NULL,
	  "write FILE instead (- for the standard output)", NULL, 0 },
	{ "no-derive", 'n', 0, NULL, NULL, "make nothing: the page says what is missing", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};
static const struct pb_cmd cmd = { usage, options, 21, NULL, 0 };

int main(int argc, char **argv)
{
	const char *out = NULL;
	int c, derive = 1;

	pb_init("pb-report");
	while ((c = pb_getopt(argc, argv, &cmd)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'n': derive = 0; break;
		}
	}
	if (argc - optind != 1)
		die_usage("give one study directory");
	report_write(argv[optind], out, derive, argc, argv);
	return 0;
}
