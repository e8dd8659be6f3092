/*
 * outfile.c: the one output writer (outfile.h).
 */
#define _GNU_SOURCE /* mkostemp */
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/util.h"

struct outfile {
	FILE *f;
	char *path; /* the file written (a symlink resolved) */
	char *tmp;  /* the temporary renamed over path at close; NULL: in place */
	bool is_stdout;
};

/* The directory part of path ("." without one, "/" for a file at the root). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? xasprintf("%.*s", (int)(slash - path) + (slash == path), path) : xstrdup(".");
}

/* Temporary files of earlier saves of `path` (PATH.tmpXXXXXX) left by a
 * writer that was killed: a writer holds an exclusive flock on its temp file
 * until the rename, and a lock dies with its process, so a temp file that can
 * be locked belongs to nobody and is removed. Saves of other files and a
 * save of the same file still in progress are left alone; only regular files
 * are opened (O_NOFOLLOW), so a FIFO or symlink of that name is never
 * touched. */
void remove_stale_temps(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = dir_of(path);
	const char *base = slash ? slash + 1 : path;
	size_t bl = strlen(base);
	DIR *d = opendir(dir);
	if (d) {
		for (struct dirent *e; (e = readdir(d)) != NULL;) {
			const char *n = e->d_name;
			if (strncmp(n, base, bl) != 0 || strncmp(n + bl, ".tmp", 4) != 0 || strlen(n + bl + 4) != 6)
				continue;
			char *full = xasprintf("%s/%s", dir, n);
			struct stat st;
			int fd = lstat(full, &st) == 0 && S_ISREG(st.st_mode)
					 ? open(full, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
					 : -1;
			struct stat fst;
			if (fd >= 0 && fstat(fd, &fst) == 0 && S_ISREG(fst.st_mode) && fst.st_ino == st.st_ino &&
			    flock(fd, LOCK_EX | LOCK_NB) == 0)
				unlink(full);
			if (fd >= 0)
				close(fd);
			free(full);
		}
		closedir(d);
	}
	free(dir);
}

/* Why the temporary file beside `path` could not be created, in the words of
 * the problem (mkstemp's ENOENT in /proc says "No such file or directory"
 * about a directory that exists). */
static void temp_error(const char *path, int e, char **err)
{
	char *dir = dir_of(path);
	struct stat st;
	bool dir_ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
	if (e == ENOENT && dir_ok)
		set_err(err, "%s: cannot create a file in %s: it does not accept new files (a virtual file system such "
			     "as /proc or /sys?)",
			path, dir);
	else if (e == ENOENT || (e == ENOTDIR && !dir_ok))
		set_err(err, "%s: directory %s does not exist", path, dir);
	else
		set_err(err, "%s: cannot create a file in %s: %s", path, dir, strerror(e));
	free(dir);
}

static struct outfile *in_place(const char *path, int fd)
{
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return NULL;
	}
	struct outfile *o = xcalloc(1, sizeof *o);
	o->f = f;
	o->path = xstrdup(path);
	return o;
}

struct outfile *outfile_open(const char *path, char **err)
{
	if (!path || !*path) {
		set_err(err, "an output file needs a name");
		return NULL;
	}
	if (strcmp(path, "-") == 0) {
		struct outfile *o = xcalloc(1, sizeof *o);
		o->f = stdout;
		o->path = xstrdup("stdout");
		o->is_stdout = true;
		return o;
	}
	/* A device or FIFO (/dev/null, /dev/stdout, a pipe) is written in place:
	 * renaming a temp file over it would replace the node itself. */
	struct stat sb;
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		if (S_ISDIR(sb.st_mode)) {
			set_err(err, "%s: is a directory", path);
			return NULL;
		}
		int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		struct stat fst;
		if (fd < 0) {
			set_err(err, "%s: %s", path, strerror(errno));
			return NULL;
		}
		if (fstat(fd, &fst) == 0 && !S_ISREG(fst.st_mode)) {
			struct outfile *o = in_place(path, fd);
			if (!o)
				set_err(err, "%s: %s", path, strerror(errno));
			return o;
		}
		close(fd); /* it became a regular file meanwhile: the temporary route */
	}
	/* Through a symlink, replace the file it names, never the link. */
	char *real = NULL;
	if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
		real = realpath(path, NULL);
		if (!real) {
			set_err(err, "%s: a symbolic link to a file that does not exist; not followed", path);
			return NULL;
		}
		path = real;
	}
	remove_stale_temps(path);
	char *tmp = xasprintf("%s.tmpXXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC); /* O_CREAT|O_EXCL: never opens what is already there */
	if (fd < 0) {
		temp_error(path, errno, err);
		free(tmp);
		free(real);
		return NULL;
	}
	flock(fd, LOCK_EX); /* ours until the rename (remove_stale_temps) */
	FILE *f = fdopen(fd, "w");
	if (!f) {
		set_err(err, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		free(real);
		return NULL;
	}
	struct outfile *o = xcalloc(1, sizeof *o);
	o->f = f;
	o->path = xstrdup(path);
	o->tmp = tmp;
	free(real);
	return o;
}

FILE *outfile_stream(struct outfile *o) { return o->f; }
bool outfile_failed(const struct outfile *o) { return ferror(o->f) != 0; }
const char *outfile_path(const struct outfile *o) { return o->path; }
const char *outfile_temp(const struct outfile *o) { return o->tmp; }

static void outfile_free(struct outfile *o)
{
	free(o->path);
	free(o->tmp);
	free(o);
}

int outfile_close(struct outfile *o, char **err)
{
	int rc = 0;
	errno = 0;
	if (o->is_stdout) {
		if (fflush(o->f) || ferror(o->f))
			rc = set_err(err, "stdout: %s", strerror(errno ? errno : EIO));
		clearerr(o->f);
		outfile_free(o);
		return rc;
	}
	bool bad = fflush(o->f) != 0 || ferror(o->f);
	int e = bad ? (errno ? errno : EIO) : 0;
	if (!bad && o->tmp && (fchmod(fileno(o->f), 0644) || fsync(fileno(o->f)))) {
		bad = true;
		e = errno;
	}
	/* Renamed while still locked: no other save removes it first. */
	if (!bad && o->tmp && rename(o->tmp, o->path)) {
		bad = true;
		e = errno;
	}
	if (fclose(o->f) && !bad && !o->tmp) { /* in place: the close may be the first to see the error */
		bad = true;
		e = errno ? errno : EIO;
	}
	if (bad) {
		rc = set_err(err, "%s: %s", o->path, strerror(e));
		if (o->tmp)
			unlink(o->tmp);
	}
	outfile_free(o);
	return rc;
}

void outfile_discard(struct outfile *o)
{
	if (o->is_stdout) {
		fflush(o->f);
	} else {
		if (o->tmp)
			unlink(o->tmp);
		fclose(o->f);
	}
	outfile_free(o);
}

int outfile_check(const char *path, char **err)
{
	if (!path || !*path)
		return set_err(err, "an output file needs a name");
	if (strcmp(path, "-") == 0)
		return 0;
	struct stat sb;
	if (stat(path, &sb) == 0) {
		if (S_ISDIR(sb.st_mode))
			return set_err(err, "%s: is a directory", path);
		if (!S_ISREG(sb.st_mode)) /* a device or FIFO, written in place */
			return access(path, W_OK) ? set_err(err, "%s: %s", path, strerror(errno)) : 0;
	} else if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
		return set_err(err, "%s: a symbolic link to a file that does not exist; not followed", path);
	}
	char *real = NULL;
	if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) && (real = realpath(path, NULL)) != NULL)
		path = real;
	char *dir = dir_of(path);
	struct stat ds;
	int rc = 0;
	if (stat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode))
		rc = set_err(err, "%s: directory %s does not exist", path, dir);
	else if (access(dir, W_OK | X_OK))
		rc = set_err(err, "%s: cannot create a file in %s: %s", path, dir, strerror(errno));
	free(dir);
	free(real);
	return rc;
}

int write_file_atomic(const char *path, const char *text, char **err)
{
	struct outfile *o = outfile_open(path, err);
	if (!o)
		return -1;
	size_t len = strlen(text);
	fwrite(text, 1, len, o->f);
	return outfile_close(o, err);
}

int path_check_printable(const char *what, const char *path, char **err)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return set_err(err,
				       "%s: the path holds a control character (byte 0x%02x at position %d), which no "
				       "script or plot can carry safely; choose another name",
				       what, *p, (int)(p - (const unsigned char *)path) + 1);
	return 0;
}
