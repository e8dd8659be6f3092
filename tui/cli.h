/*
 * cli.h: the command line (option parsing, batch and headless modes). main()
 * is just `return gpustep_main(argc, argv);`.
 *
 * Exit status: 0 ok, 1 runtime error (a failed batch command, an interrupted
 * run, an unwritable stats file), 2 usage or config error.
 */
#ifndef GPUSTEP_CLI_H
#define GPUSTEP_CLI_H

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

#define GPUSTEP_DEFAULT_WORKLOAD "vecadd"

int gpustep_main(int argc, char **argv);

#endif
