/*
 * whatif.h: `gpustep whatif` (the headless whatif, from cycle 0 to the end,
 * docs/WHATIF.md) and `gpustep diff A.json B.json` (two --stats files ranked
 * as whatif's "what moved", cli/diff.c).
 */
#ifndef GPUSTEP_CLI_WHATIF_H
#define GPUSTEP_CLI_WHATIF_H

/* argv[0] is "whatif" / "diff"; returns the exit status (cli.h). */
int whatif_main(int argc, char **argv);
int diff_main(int argc, char **argv);

#endif
