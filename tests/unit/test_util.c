/*
 * test_util.c: error messages quote input bytes; set_err keeps them
 * printable (control bytes and broken UTF-8 become '?', valid UTF-8,
 * newlines and tabs stay).
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "sim/util.h"

TEST(set_err_keeps_quoted_bytes_printable)
{
	char *err = NULL;
	/* ESC [31m, a C1 control (U+009B, CSI), a lone continuation byte, a truncated 3-byte lead,
	 * bytes that never start UTF-8 (0xf8, 0xff), DEL */
	set_err(&err, "got '%s'", "a\x1b[31mb\xc2\x9b" "c\x80" "d\xe2\x82" "e\xf8\xff\x7f");
	REQUIRE(err);
	CHECK_STR(err, "got 'a?[31mb?" "?c?d?" "?e?" "?" "?'");
	free(err);
	err = NULL;
	set_err(&err, "%s", "caf\xc3\xa9 \xe2\x89\xa5 \xf0\x9f\x99\x82\tline\nnext");
	CHECK_STR(err, "caf\xc3\xa9 \xe2\x89\xa5 \xf0\x9f\x99\x82\tline\nnext");
	free(err);
	/* the first error wins */
	err = NULL;
	set_err(&err, "first");
	set_err(&err, "second");
	CHECK_STR(err, "first");
	free(err);
}
