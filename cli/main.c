/* main.c: the gpustep program; everything is in cli.c. */
#include "cli.h"

int main(int c, char **v) { return gpustep_main(c, v); }
