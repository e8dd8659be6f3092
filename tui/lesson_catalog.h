/* lesson_catalog.h: the lessons as a catalogue (lesson_catalog.c), used by
 * the `lesson` prompt command and `gpustep lesson` (cmd_lesson.c). */
#ifndef GPUSTEP_TUI_LESSON_CATALOG_H
#define GPUSTEP_TUI_LESSON_CATALOG_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd_int.h"

struct lesson;

/* The built-in lessons in teaching order, each with its steps, estimated
 * minutes, progress and summary. */
void list_lessons(struct cmd_out *out);
/* Lesson l as Markdown to f: questions, hints; with answers, where each
 * answer is read and the explanations. */
void print_handout(const struct lesson *l, bool answers, FILE *f);
/* Clear the progress file of lesson `name` (a lesson-name rule checked). */
int reset_progress(const char *name, struct cmd_out *out);

#endif
