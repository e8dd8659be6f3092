/* cmd_coh.h: the `stress-coherence` subcommand (cmd_coh.c). */
#ifndef GPUSTEP_CMD_COH_H
#define GPUSTEP_CMD_COH_H

int stress_coherence_main(int argc, char **argv);

#endif
