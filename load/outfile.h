/*
 * outfile.h: the one writer of every file gpustep produces (stats JSON,
 * --csv, --trace-out, sessions, sweep results and scripts; docs/EXPORTS.md,
 * "Safety").
 *
 *   path ─┬─ "-"                         stdout
 *         ├─ a device or FIFO            written in place (never replaced)
 *         ├─ a directory                 refused
 *         └─ a regular file or nothing   streamed into PATH.tmpXXXXXX
 *              (through a symlink:        (mkstemp: unpredictable, O_EXCL so a
 *               the file it names)         planted symlink is never followed;
 *                                          flock'd until the rename), fsync,
 *                                          rename over PATH at outfile_close
 *
 * A reader therefore never sees half a file, a killed writer leaves only a
 * temporary that the next save of the same path removes (remove_stale_temps),
 * and a symlink, FIFO or device node at PATH stays what it is.
 */
#ifndef GPUSTEP_OUTFILE_H
#define GPUSTEP_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct outfile;

/* Open path for writing (above). NULL with *err naming the problem. */
struct outfile *outfile_open(const char *path, char **err);
/* The stream to write to. Write errors are remembered by the stream and
 * reported by outfile_close (or seen early with outfile_failed). */
FILE *outfile_stream(struct outfile *o);
/* True once a write has failed (disk full, EPIPE, ...). */
bool outfile_failed(const struct outfile *o);
/* The temporary's name (for a writer that opens the file itself, such as
 * SQLite), or NULL when the destination is written in place (stdout, a
 * device or FIFO). */
const char *outfile_temp(const struct outfile *o);
/* The path being written (after a symlink was resolved). */
const char *outfile_path(const struct outfile *o);
/* Flush, fsync and rename into place: 0, or -1 with *err (the temporary is
 * removed and PATH left as it was). Frees o. */
int outfile_close(struct outfile *o, char **err);
/* Give up: remove the temporary, leave PATH as it was. Frees o. */
void outfile_discard(struct outfile *o);

/* Whether path can be written, checked before a long run starts: "-", an
 * existing device or FIFO, or a regular file (or none) in an existing
 * directory this user may write into. 0, or -1 with *err. */
int outfile_check(const char *path, char **err);

/* The whole of text to path through an outfile. */
int write_file_atomic(const char *path, const char *text, char **err);

/* Remove temporary files of earlier saves of `path` left by writers that were
 * killed (unlocked regular files PATH.tmpXXXXXX); saves in progress are left
 * alone. */
void remove_stale_temps(const char *path);

/* A path for a file other programs read or a shell runs: refused (-1 with
 * *err naming `what`) when it holds a control character (newline, tab,
 * escape, DEL), which no script or plot can carry safely. */
int path_check_printable(const char *what, const char *path, char **err);

#endif
