/*
 * search.c: the `/` filter input shared by the events and stats panels.
 */
#include "search.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

int search_key(struct search *s, struct panel *p, int key, bool *changed)
{
	*changed = false;
	if (!s->editing) {
		if (key != '/')
			return VK_IGNORED;
		s->editing = true;
		p->modal = true;
		return VK_HANDLED | VK_REDRAW;
	}
	size_t n = strlen(s->text);
	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		s->editing = false;
		p->modal = false;
		break;
	case 27: /* Esc: drop the filter */
	case 3:  /* Ctrl-C */
		s->editing = false;
		p->modal = false;
		*changed = s->text[0] != 0;
		s->text[0] = 0;
		break;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (n) {
			s->text[n - 1] = 0;
			*changed = true;
		}
		break;
	case 21: /* Ctrl-U */
		*changed = n != 0;
		s->text[0] = 0;
		break;
	default:
		if (key >= 32 && key < 127 && n + 1 < sizeof s->text) {
			s->text[n] = (char)key;
			s->text[n + 1] = 0;
			*changed = true;
		}
		break;
	}
	return VK_HANDLED | VK_REDRAW;
}

void search_label(const struct search *s, char *buf, int n)
{
	if (s->editing)
		snprintf(buf, (size_t)n, "/%s_  (Enter keeps, Esc clears)", s->text);
	else if (s->text[0])
		snprintf(buf, (size_t)n, "filter: %s", s->text);
	else
		buf[0] = 0;
}
