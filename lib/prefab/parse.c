/* The text prefab parser (docs/prefab-format.md): one pass over a buffer that
 * need not be NUL-terminated, every error reported as name:line:col. This
 * file splits the lines into words, reads the group lines, starts and ends
 * prefabs, reads their maps and holds the entry points; the legends, the
 * header keys, the analysis of substitutions and the errors are its parts
 * (parse_state.h). */
#include "prefab/parse_state.h"

#include <stddef.h>
#include <stdio.h>

#define MAX_GROUPS 64
#define MAX_PREFABS 1000000

enum { /* what a map row byte is: a row of seen, allowed bytes takes one test per byte */
    CELL_ALLOWED = 1, CELL_SEEN = 2, CELL_REPORTED = 4
};

/* ---- storage ------------------------------------------------------------------ */

static int cells_reserve(prefab_parser *ps, size_t extra)
{
    dg_prefab_set *s = ps->set;
    if (s->cells_len + extra <= s->cells_cap)
        return 1;
    size_t cap = s->cells_cap ? s->cells_cap : 4096;
    while (cap < s->cells_len + extra)
        cap *= 2;
    uint8_t *fresh = dgi_alloc(dgi_set_alloc(s), cap);
    if (!fresh)
    {
        dgi_text_oom(&ps->err, "prefabs");
        return 0;
    }
    if (s->cells)
    {
        memcpy(fresh, s->cells, s->cells_len);
        dgi_free(dgi_set_alloc(s), s->cells, s->cells_cap);
    }
    s->cells = fresh;
    s->cells_cap = cap;
    return 1;
}

static uint32_t name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* Index of the prefab named name (n bytes, name_hash h), or -1. */
static int32_t names_find(const dg_prefab_set *s, const char *name, size_t n, uint32_t h)
{
    if (!s->names || n >= DG_NAME_MAX)
        return -1;
    uint32_t mask = (uint32_t)s->name_cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask)
    {
        int32_t k = s->names[i];
        if (k < 0)
            return -1;
        if (memcmp(s->prefabs[k].name, name, n) == 0 && s->prefabs[k].name[n] == '\0')
            return k;
    }
}

/* Adds prefab index, whose name has name_hash h, to the table. */
static int names_insert(prefab_parser *ps, int32_t index, uint32_t h)
{
    dg_prefab_set *s = ps->set;
    if ((int64_t)(s->count + 1) * 2 > s->name_cap)
    {
        int32_t cap = s->name_cap ? s->name_cap * 2 : 64;
        int32_t *fresh = dgi_alloc(dgi_set_alloc(s), (size_t)cap * sizeof *fresh);
        if (!fresh)
        {
            dgi_text_oom(&ps->err, "prefabs");
            return 0;
        }
        for (int32_t i = 0; i < cap; i++)
            fresh[i] = -1;
        dgi_free(dgi_set_alloc(s), s->names, (size_t)s->name_cap * sizeof *s->names);
        s->names = fresh;
        s->name_cap = cap;
        for (int32_t k = 0; k < s->count; k++)
            if (k != index)
            {
                uint32_t mask = (uint32_t)cap - 1, i;
                const char *nm = s->prefabs[k].name;
                for (i = name_hash(nm, strlen(nm)) & mask; fresh[i] >= 0; i = (i + 1) & mask)
                    ;
                fresh[i] = k;
            }
    }
    uint32_t mask = (uint32_t)s->name_cap - 1, i;
    for (i = h & mask; s->names[i] >= 0; i = (i + 1) & mask)
        ;
    s->names[i] = index;
    return 1;
}

/* ---- the words of a header line ------------------------------------------------------- */

static int is_blank(uint8_t c)
{
    return c == ' ' || c == '\t';
}

/* 1 for '!'..'~': one unsigned compare per byte of a word. */
static int is_word_byte(uint8_t c)
{
    return (uint8_t)(c - 0x21u) < 0x5Eu;
}

/* The byte that stopped a word is neither blank nor the line end: report it. */
static void bad_word_byte(prefab_parser *ps, uint8_t c, int32_t col)
{
    if (c >= 0x80)
        dgi_parse_error(ps, ps->in.line, col, "non-ASCII byte 0x%02X outside a comment", c);
    else
        dgi_parse_error(ps, ps->in.line, col, "control byte 0x%02X", c);
}

/* Splits the current header line into tokens; `;` at a token start begins a
 * comment. Returns 0 (and reports) on a bad byte. */
static int tokenize(prefab_parser *ps)
{
    const uint8_t *l = (const uint8_t *)ps->l;
    int32_t n = ps->ll, i = 0;
    ps->ntok = 0;
    for (;;)
    {
        while (i < n && is_blank(l[i]))
            i++;
        if (i == n || l[i] == ';')
            return 1;
        int32_t start = i;
        while (i < n && is_word_byte(l[i]))
            i++;
        if (i < n && !is_blank(l[i]))
        {
            bad_word_byte(ps, l[i], i + 1);
            return 0;
        }
        if (ps->ntok == PREFAB_MAX_TOKENS)
        {
            dgi_parse_error(ps, ps->in.line, start + 1, "more than %d words on one line", PREFAB_MAX_TOKENS);
            return 0;
        }
        prefab_token *t = &ps->tok[ps->ntok++];
        t->s = ps->l + start;
        t->n = i - start;
        t->col = start + 1;
    }
}

/* ---- prefab start and end --------------------------------------------------------------- */

static void prefab_begin(prefab_parser *ps)
{
    if (ps->set->count >= MAX_PREFABS)
    {
        dgi_parse_error(ps, ps->in.line, ps->tok[0].col, "more than %d prefabs in one set", MAX_PREFABS);
        return;
    }
    if (!PREFAB_GROW(ps, prefabs, count, cap_prefabs))
        return;
    ps->pi = ps->set->count++;
    dgi_prefab *p = ps->p = &ps->set->prefabs[ps->pi];
    memset(p, 0, offsetof(dgi_prefab, edge)); /* map_end computes the edges of every sound map */
    p->line = ps->in.line;
    p->modes = DG_PREFAB_FULL | DG_PREFAB_JIGSAW | DG_PREFAB_ISLAND | DG_PREFAB_FURNISH;
    p->orientations = DG_ORIENT_MASK_ALL;
    p->weight = 10;
    p->margin = 1;
    p->tag_first = ps->set->tag_count;
    p->sub_first = ps->set->sub_count;
    p->req_first = ps->set->req_count;
    p->legend = -1;
    ps->p_bad = 0;
    ps->keys = 0;
    ps->cur_custom = 0;
    ps->size_w = -1;
    ps->exits = -1;
    ps->state = PREFAB_ST_HEADER;
    p->name[0] = '?'; /* until the name is read (the memset ended it) */
    if (ps->ntok != 2)
    {
        dgi_parse_error(ps, ps->in.line, ps->ntok < 2 ? ps->tok[0].col + ps->tok[0].n : ps->tok[2].col,
             "expected 'prefab NAME'");
        if (ps->ntok < 2)
            return;
    }
    if (!dgi_parse_take_name(ps, &ps->tok[1], "prefab name", p->name)) /* the bytes after it stay zero */
        return;
    uint32_t h = name_hash(p->name, (size_t)ps->tok[1].n);
    int32_t dup = names_find(ps->set, p->name, (size_t)ps->tok[1].n, h);
    if (dup >= 0)
        dgi_parse_error(ps, ps->in.line, ps->tok[1].col, "duplicate prefab name '%s' (first at line %d)", p->name,
             (int)ps->set->prefabs[dup].line);
    else
        names_insert(ps, ps->pi, h);
}

/* Stores the legend the prefab uses (shared with earlier prefabs when unchanged). */
static int store_legend(prefab_parser *ps)
{
    if (!ps->cur_custom && ps->file_snapshot >= 0)
    {
        ps->p->legend = ps->file_snapshot;
        return 1;
    }
    if (!PREFAB_GROW(ps, legends, legend_count, cap_legends))
        return 0;
    ps->set->legends[ps->set->legend_count] = ps->cur_custom ? ps->cur : ps->file_legend;
    ps->p->legend = ps->set->legend_count++;
    if (!ps->cur_custom)
        ps->file_snapshot = ps->p->legend;
    return 1;
}

/* `map`: the legend and substitutions are final; decide which glyphs rows may use. */
static void map_begin(prefab_parser *ps)
{
    if (ps->ntok > 1)
        dgi_parse_error(ps, ps->in.line, ps->tok[1].col, "'map' takes no arguments");
    if (!store_legend(ps))
        return;
    const dgi_legend *lg = &ps->set->legends[ps->p->legend];
    if (ps->allowed_legend != ps->p->legend) /* prefabs mostly share the file's legend */
    {
        memset(ps->allowed, 0, sizeof ps->allowed);
        for (int c = 33; c < 127; c++)
            ps->allowed[c] = lg->glyph[c].cls != DGI_CLASS_NONE ? CELL_ALLOWED : 0;
        ps->allowed_legend = ps->p->legend;
    }
    memcpy(ps->cell_state, ps->allowed, sizeof ps->cell_state);
    ps->used_count = 0;
    ps->met_count = 0;
    for (int32_t k = 0; k < ps->p->sub_count; k++)
    {
        const dgi_sub *s = &ps->set->subs[ps->p->sub_first + k];
        ps->cell_state[s->glyph] = CELL_ALLOWED;
        if (lg->glyph[s->glyph].cls == DGI_CLASS_DOOR)
            dgi_parse_error(ps, s->line, s->column, "door glyph '%c' cannot be substituted", s->glyph);
        for (int32_t j = 0; j < s->count; j++)
        {
            const dgi_choice *ch = &ps->set->choices[s->first + j];
            if (lg->glyph[ch->glyph].cls == DGI_CLASS_DOOR && ch->amount != 0)
                dgi_parse_error(ps, ch->line, ch->column, "substitution would add door glyph '%c'", ch->glyph);
        }
        if (s->rest && lg->glyph[s->rest].cls == DGI_CLASS_DOOR)
            dgi_parse_error(ps, s->line, s->rest_column, "substitution would add door glyph '%c'", s->rest);
    }
    ps->map_line = ps->in.line;
    ps->first_row = ps->in.line + 1;
    ps->rows = 0;
    ps->shape_bad = 0;
    ps->p->width = 0;
    ps->p->cells = ps->set->cells_len;
    ps->state = PREFAB_ST_MAP;
}

/* A byte a row may not hold: say why. */
static void bad_byte(prefab_parser *ps, uint8_t c, int32_t col)
{
    if (c >= 0x80)
        dgi_parse_error(ps, ps->in.line, col, "non-ASCII byte 0x%02X in a row", c);
    else if (c == '\t')
        dgi_parse_error(ps, ps->in.line, col, "tab in a row");
    else if (c == ' ')
        dgi_parse_error(ps, ps->in.line, col, "space in a row (use a glyph, e.g. '_' for void)");
    else if (c < 0x20 || c == 0x7F)
        dgi_parse_error(ps, ps->in.line, col, "control byte 0x%02X in a row", c);
    else if (c == ';')
        dgi_parse_error(ps, ps->in.line, col, "';' is reserved and cannot be a glyph");
    else if (!(ps->cell_state[c] & CELL_REPORTED))
        dgi_parse_error(ps, ps->in.line, col, "glyph '%c' is not in the legend (prefab '%s')", c, ps->p->name);
    ps->cell_state[c] |= CELL_REPORTED;
}

/* A byte met for the first time in this map, or one it may not hold. */
static void unusual_byte(prefab_parser *ps, uint8_t c, int32_t col)
{
    if (!(ps->cell_state[c] & CELL_SEEN))
    {
        ps->cell_state[c] |= CELL_SEEN;
        ps->met[ps->met_count++] = c;
        if (is_word_byte(c))
            ps->used[ps->used_count++] = c;
    }
    if (!(ps->cell_state[c] & CELL_ALLOWED))
        bad_byte(ps, c, col);
}

/* One map row. Rows are stored while the map's shape is sound (glyph errors
 * do not stop the later checks); shape_bad stops storing. */
static void map_row(prefab_parser *ps)
{
    const uint8_t *row = (const uint8_t *)ps->l;
    int32_t n = ps->ll;
    if (ps->rows == DG_PREFAB_MAX_SIDE)
    {
        dgi_parse_error(ps, ps->in.line, 1, "map is taller than %d rows", DG_PREFAB_MAX_SIDE);
        ps->shape_bad = 1;
    }
    ps->rows++;
    if (n > DG_PREFAB_MAX_SIDE)
    {
        dgi_parse_error(ps, ps->in.line, DG_PREFAB_MAX_SIDE + 1, "row is wider than %d cells", DG_PREFAB_MAX_SIDE);
        n = DG_PREFAB_MAX_SIDE;
        ps->shape_bad = 1;
    }
    for (int32_t i = 0; i < n; i++)
        if (ps->cell_state[row[i]] != (CELL_ALLOWED | CELL_SEEN))
            unusual_byte(ps, row[i], i + 1);
    if (ps->rows == 1)
        ps->p->width = n;
    if (n == 0)
    {
        dgi_parse_error(ps, ps->in.line, 1, "empty row in a map");
        ps->shape_bad = 1;
    }
    else if (n != ps->p->width && !ps->shape_bad)
    {
        dgi_parse_error(ps, ps->in.line, DG_MIN(n, ps->p->width) + 1,
             "row is %d cells wide, expected %d (first row at line %d)", (int)n,
             (int)ps->p->width, (int)ps->first_row);
        ps->shape_bad = 1;
    }
    if (ps->shape_bad || !cells_reserve(ps, (size_t)n))
        return;
    memcpy(ps->set->cells + ps->set->cells_len, row, (size_t)n);
    ps->set->cells_len += (size_t)n;
}

/* Length of the run of allowed glyphs at the start of s (at most `most`
 * bytes); *fresh becomes 1 if one of them is met for the first time in this
 * map. For a map's first row, whose width is not known yet. */
static size_t allowed_run(const uint8_t *state, const uint8_t *s, size_t most, int *fresh)
{
    size_t n = 0;
    uint8_t seen = CELL_SEEN;
    while (n < most && (state[s[n]] & CELL_ALLOWED))
        seen &= state[s[n++]];
    *fresh = !seen;
    return n;
}

/* A row as wide as the map's, of glyphs it may hold, ended by '\n' or "\r\n":
 * copied to dst, and its length with the line end returned (*fresh 1 if it
 * holds a glyph met for the first time); 0 for any other line. Every byte is
 * tested, without an early exit, so the loop runs the same count for each row
 * of a map and its branches are predicted. */
static size_t width_row(const uint8_t *state, const uint8_t *s, size_t left, size_t width,
                        uint8_t *dst, int *fresh)
{
    if (width >= left)
        return 0;
    size_t end = width + (s[width] == '\r');
    if (end >= left || s[end] != '\n' || (width == 3 && memcmp(s, "end", 3) == 0))
        return 0;
    uint8_t all = CELL_ALLOWED | CELL_SEEN, a[4] = {all, all, all, all};
    size_t i = 0;
    for (; i + 4 <= width; i += 4) /* four lanes: no chain of dependent ANDs */
    {
        a[0] &= state[s[i]];
        a[1] &= state[s[i + 1]];
        a[2] &= state[s[i + 2]];
        a[3] &= state[s[i + 3]];
    }
    for (; i < width; i++)
        all &= state[s[i]];
    all &= (uint8_t)(a[0] & a[1] & a[2] & a[3]);
    memcpy(dst, s, width);
    *fresh = !(all & CELL_SEEN);
    return all & CELL_ALLOWED ? end + 1 : 0;
}

/* The common map rows: glyphs the map may hold, each row ended by a line end,
 * as wide as the rows before and not the map's `end`. They are stored straight
 * from the input, without splitting lines off first, until a line that takes
 * the general path, which reports what is wrong. */
static void map_rows_fast(prefab_parser *ps)
{
    dgi_prefab *p = ps->p;
    dg_prefab_set *set = ps->set;
    const uint8_t *src = (const uint8_t *)ps->in.src;
    size_t pos = ps->in.pos, len = ps->in.len;
    int32_t rows = ps->rows, width = p->width, line = ps->in.line;
    if (ps->shape_bad)
        return;
    while (pos < len && rows < DG_PREFAB_MAX_SIDE)
    {
        const uint8_t *s = src + pos;
        size_t left = len - pos, took;
        int fresh = 0;
        if (rows > 0 && set->cells_len + (size_t)width <= set->cells_cap &&
            (took = width_row(ps->cell_state, s, left, (size_t)width, set->cells + set->cells_len, &fresh)) > 0)
        {
            ps->in.line = ++line; /* unusual_byte reports at ps->in.line */
            for (int32_t i = 0; fresh && i < width; i++) /* first meetings in reading order */
                if (!(ps->cell_state[s[i]] & CELL_SEEN))
                    unusual_byte(ps, s[i], i + 1);
            set->cells_len += (size_t)width;
            pos += took;
            rows++;
            continue;
        }
        size_t n = allowed_run(ps->cell_state, s, DG_MIN(left, (size_t)DG_PREFAB_MAX_SIDE), &fresh);
        size_t end = n; /* the line end: '\n', '\r\n', '\r' at the input's end, or none */
        if (n < left)
        {
            end += s[n] == '\r';
            if (end < left && s[end] != '\n')
                break;
            end += end < left;
        }
        if (n == 0 || (rows > 0 && (int32_t)n != width) || (n == 3 && memcmp(s, "end", 3) == 0))
            break;
        if (set->cells_len + n > set->cells_cap && !cells_reserve(ps, n))
            break;
        line++;
        ps->in.line = line; /* unusual_byte reports at ps->in.line */
        for (size_t i = 0; fresh && i < n; i++) /* first meetings in reading order, as map_row */
            if (!(ps->cell_state[s[i]] & CELL_SEEN))
                unusual_byte(ps, s[i], (int32_t)i + 1);
        if (rows++ == 0)
            width = p->width = (int32_t)n;
        memcpy(set->cells + set->cells_len, s, n);
        set->cells_len += n;
        pos += end;
    }
    ps->in.pos = pos;
    ps->rows = rows;
    ps->in.line = line;
}

/* A door cell on the border adds its side; a door on a corner is an error. */
static void border_door(prefab_parser *ps, int32_t x, int32_t y)
{
    dgi_prefab *p = ps->p;
    int32_t w = p->width, h = p->height;
    if ((x == 0 || x == w - 1) && (y == 0 || y == h - 1))
        dgi_parse_error(ps, ps->first_row + y, x + 1, "door on a corner of prefab '%s' (its side is ambiguous)",
             p->name);
    else
        p->door_sides |= (y == 0 ? DG_SIDE_N : 0) | (x == w - 1 ? DG_SIDE_E : 0) |
                         (y == h - 1 ? DG_SIDE_S : 0) | (x == 0 ? DG_SIDE_W : 0);
}

/* Door cells on the border give the door sides, visited in reading order.
 * Only a glyph the map holds can be a door: most maps hold no door glyph or
 * one, so the border is read only when there is one. */
static void find_doors(prefab_parser *ps, const uint8_t *g, const dgi_legend *lg)
{
    int32_t w = ps->p->width, h = ps->p->height, doors = 0;
    uint8_t *is_door = ps->passable; /* scratch until outcome_passability */
    for (int32_t u = 0; u < ps->met_count; u++) /* bytes >= 0x80 were reported, never doors */
    {
        uint8_t c = ps->met[u];
        is_door[c] = c < 0x80 && lg->glyph[c].cls == DGI_CLASS_DOOR;
        doors += is_door[c];
    }
    for (int32_t y = 0; y < h && doors > 0; y++)
    {
        const uint8_t *row = g + (size_t)y * (size_t)w;
        if (y == 0 || y == h - 1)
        {
            for (int32_t x = 0; x < w; x++)
                if (is_door[row[x]])
                    border_door(ps, x, y);
            continue;
        }
        if (is_door[row[0]])
            border_door(ps, 0, y);
        if (w > 1 && is_door[row[w - 1]])
            border_door(ps, w - 1, y);
    }
}


static void map_end(prefab_parser *ps)
{
    dgi_prefab *p = ps->p;
    p->height = ps->rows;
    if (ps->rows == 0)
    {
        dgi_parse_error(ps, ps->in.line, 1, "map of prefab '%s' has no rows", p->name);
        ps->shape_bad = 1;
    }
    if (!ps->shape_bad && ps->size_w >= 0 && (ps->size_w != p->width || ps->size_h != p->height))
        dgi_parse_error(ps, ps->size_line, ps->size_col, "size says %dx%d but the map is %dx%d",
             (int)ps->size_w, (int)ps->size_h, (int)p->width, (int)p->height);
    if (!ps->shape_bad && p->legend >= 0)
    {
        const uint8_t *g = ps->set->cells + p->cells;
        const dgi_legend *lg = &ps->set->legends[p->legend];
        find_doors(ps, g, lg);
        if (ps->exits >= 0 && ps->exits != p->door_sides)
            dgi_parse_error(ps, ps->exits_line, ps->exits_col,
                 "exits do not match the doors drawn on the border of prefab '%s'", p->name);
        dgi_parse_check_flow(ps, g, lg);
        p->distinct = dgi_orient_distinct_edges(g, p->width, p->height, p->orientations,
                                                ps->p_bad ? NULL : (const uint64_t(*)[4])p->edge); /* made by check_flow */
    }
    ps->state = PREFAB_ST_TOP;
    ps->p = NULL;
}

/* A prefab whose map never started or never ended. */
static void prefab_abandon(prefab_parser *ps, const char *why)
{
    dgi_parse_error(ps, ps->p->line, 1, "prefab '%s' %s", ps->p->name, why);
    ps->state = PREFAB_ST_TOP;
    ps->p = NULL;
}

/* ---- lines -------------------------------------------------------------------------- */

static void group_line(prefab_parser *ps)
{
    char b[40];
    if (ps->ntok < 3 || ps->ntok > 4)
    {
        dgi_parse_error(ps, ps->in.line, ps->tok[0].col, "expected 'group TAG COUNT [start]'");
        return;
    }
    dgi_group gr;
    memset(&gr, 0, sizeof gr);
    if (!dgi_parse_take_name(ps, &ps->tok[1], "group tag", gr.tag))
        return;
    if (!dgi_parse_range(&ps->tok[2], &gr.min, &gr.max) || gr.min > 100000 || gr.max > 100000)
    {
        dgi_parse_error(ps, ps->in.line, ps->tok[2].col, "count must be N, N-M or N+ (at most 100000), got '%s'",
             dgi_parse_tok_str(&ps->tok[2], b, sizeof b));
        return;
    }
    if (ps->ntok == 4)
    {
        if (!PREFAB_TOK_IS(&ps->tok[3], "start"))
        {
            dgi_parse_error(ps, ps->in.line, ps->tok[3].col, "expected 'start', got '%s'", dgi_parse_tok_str(&ps->tok[3], b, sizeof b));
            return;
        }
        gr.start = 1;
    }
    if (ps->set->group_count >= MAX_GROUPS)
    {
        dgi_parse_error(ps, ps->in.line, ps->tok[0].col, "more than %d groups", MAX_GROUPS);
        return;
    }
    if (PREFAB_GROW(ps, groups, group_count, cap_groups))
        ps->set->groups[ps->set->group_count++] = gr;
}

static void top_line(prefab_parser *ps)
{
    char b[40];
    const prefab_token *t = &ps->tok[0];
    if (PREFAB_TOK_IS(t, "legend"))
        dgi_parse_legend_begin(ps, 0);
    else if (PREFAB_TOK_IS(t, "prefab"))
        prefab_begin(ps);
    else if (PREFAB_TOK_IS(t, "group"))
        group_line(ps);
    else if (PREFAB_TOK_IS(t, "prefabs"))
        dgi_parse_error(ps, ps->in.line, t->col, "'prefabs' header repeated");
    else if (PREFAB_TOK_IS(t, "map") || PREFAB_TOK_IS(t, "end"))
        dgi_parse_error(ps, ps->in.line, t->col, "'%s' outside a prefab", dgi_parse_tok_str(t, b, sizeof b));
    else
        dgi_parse_error(ps, ps->in.line, t->col, "unknown keyword '%s' (expected legend, prefab or group)",
             dgi_parse_tok_str(t, b, sizeof b));
}

static void header_line(prefab_parser *ps)
{
    char b[40];
    const prefab_token *t = &ps->tok[0];
    if (PREFAB_TOK_IS(t, "map"))
        map_begin(ps);
    else if (PREFAB_TOK_IS(t, "legend"))
        dgi_parse_legend_begin(ps, 1);
    else if (PREFAB_TOK_IS(t, "mode"))
        dgi_parse_key_mode(ps);
    else if (PREFAB_TOK_IS(t, "orient"))
        dgi_parse_key_orient(ps);
    else if (PREFAB_TOK_IS(t, "weight"))
    {
        if (dgi_parse_once(ps, PREFAB_KEY_WEIGHT) && dgi_parse_need_args(ps, 1))
            dgi_parse_take_number(ps, &ps->tok[1], 0, PREFAB_MAX_WEIGHT, "weight", &ps->p->weight);
    }
    else if (PREFAB_TOK_IS(t, "margin"))
    {
        if (dgi_parse_once(ps, PREFAB_KEY_MARGIN) && dgi_parse_need_args(ps, 1))
            dgi_parse_take_number(ps, &ps->tok[1], 0, 255, "margin", &ps->p->margin);
    }
    else if (PREFAB_TOK_IS(t, "edge"))
    {
        if (dgi_parse_once(ps, PREFAB_KEY_EDGE) && dgi_parse_need_args(ps, 1))
        {
            if (PREFAB_TOK_IS(&ps->tok[1], "avoid") || PREFAB_TOK_IS(&ps->tok[1], "touch"))
                ps->p->edge_avoid = PREFAB_TOK_IS(&ps->tok[1], "avoid");
            else
                dgi_parse_error(ps, ps->in.line, ps->tok[1].col, "edge must be touch or avoid");
        }
    }
    else if (PREFAB_TOK_IS(t, "unique"))
    {
        if (dgi_parse_once(ps, PREFAB_KEY_UNIQUE))
            ps->p->unique = 1;
    }
    else if (PREFAB_TOK_IS(t, "size"))
        dgi_parse_key_size(ps);
    else if (PREFAB_TOK_IS(t, "exits"))
        dgi_parse_key_exits(ps);
    else if (PREFAB_TOK_IS(t, "tags"))
        dgi_parse_key_tags(ps);
    else if (PREFAB_TOK_IS(t, "pick"))
        dgi_parse_key_sub(ps, DGI_SUB_PICK);
    else if (PREFAB_TOK_IS(t, "pick-once"))
        dgi_parse_key_sub(ps, DGI_SUB_ONCE);
    else if (PREFAB_TOK_IS(t, "count"))
        dgi_parse_key_sub(ps, DGI_SUB_COUNT);
    else if (PREFAB_TOK_IS(t, "require"))
        dgi_parse_key_require(ps);
    else if (PREFAB_TOK_IS(t, "prefab"))
    {
        prefab_abandon(ps, "has no 'map'");
        top_line(ps);
        return;
    }
    else
    {
        dgi_parse_error(ps, ps->in.line, t->col,
             "unknown key '%s' (expected mode orient weight tags unique size margin edge exits "
             "pick pick-once count require legend map)",
             dgi_parse_tok_str(t, b, sizeof b));
        return;
    }
    int32_t max_args = PREFAB_TOK_IS(t, "unique") ? 0 : 1;
    int single = max_args == 0 || PREFAB_TOK_IS(t, "weight") || PREFAB_TOK_IS(t, "margin") ||
                 PREFAB_TOK_IS(t, "edge") || PREFAB_TOK_IS(t, "size");
    if (single && ps->ntok > max_args + 1)
        dgi_parse_error(ps, ps->in.line, ps->tok[max_args + 1].col, "unexpected '%s'",
             dgi_parse_tok_str(&ps->tok[max_args + 1], b, sizeof b));
}

static int is_end_line(const char *l, int32_t n)
{
    int32_t a = 0, z = n;
    while (a < z && (l[a] == ' ' || l[a] == '\t'))
        a++;
    while (z > a && (l[z - 1] == ' ' || l[z - 1] == '\t'))
        z--;
    return z - a == 3 && memcmp(l + a, "end", 3) == 0;
}

/* A map line that starts a new prefab means the `end` was forgotten. */
static int starts_prefab(const char *l, int32_t n)
{
    return n > 7 && memcmp(l, "prefab", 6) == 0 && (l[6] == ' ' || l[6] == '\t');
}

static void line(prefab_parser *ps)
{
    if (ps->state == PREFAB_ST_MAP)
    {
        if (is_end_line(ps->l, ps->ll))
        {
            map_end(ps);
            return;
        }
        if (!starts_prefab(ps->l, ps->ll))
        {
            map_row(ps);
            return;
        }
        prefab_abandon(ps, "has no 'end' after its map");
    }
    if (!tokenize(ps) || ps->ntok == 0)
        return;
    if (!ps->seen_magic)
    {
        ps->seen_magic = 1;
        if (PREFAB_TOK_IS(&ps->tok[0], "prefabs"))
        {
            if (ps->ntok != 2 || !PREFAB_TOK_IS(&ps->tok[1], "1"))
                dgi_parse_error(ps, ps->in.line, ps->ntok > 1 ? ps->tok[1].col : ps->tok[0].col + 7,
                     "unsupported format version (expected 'prefabs 1')");
            return;
        }
        dgi_parse_error(ps, ps->in.line, ps->tok[0].col, "expected 'prefabs 1' as the first line");
    }
    if (ps->state == PREFAB_ST_LEGEND)
    {
        if (PREFAB_TOK_IS(&ps->tok[0], "end"))
        {
            if (ps->ntok > 1)
                dgi_parse_error(ps, ps->in.line, ps->tok[1].col, "'end' takes no arguments");
            ps->state = ps->legend_in_prefab ? PREFAB_ST_HEADER : PREFAB_ST_TOP;
            return;
        }
        static const char *const closers[] = {"prefab", "map", "legend", "group", "prefabs"};
        if (prefab_lookup_word(&ps->tok[0], closers, 5) < 0)
        {
            dgi_parse_legend_entry(ps);
            return;
        }
        dgi_parse_error(ps, ps->legend_line, 1, "legend is not closed by 'end'");
        ps->state = ps->legend_in_prefab ? PREFAB_ST_HEADER : PREFAB_ST_TOP;
    }
    if (ps->state == PREFAB_ST_TOP)
        top_line(ps);
    else
        header_line(ps);
}

static void run(prefab_parser *ps)
{
    size_t n;
    while (!dgi_text_stopped(&ps->err))
    {
        if (ps->state == PREFAB_ST_MAP)
            map_rows_fast(ps);
        if (!(ps->l = dgi_text_next_line(&ps->in, &n)))
            break;
        ps->ll = (int32_t)n; /* the input is at most INT32_MAX bytes */
        line(ps);
    }
    if (dgi_text_stopped(&ps->err))
        return;
    ps->in.line++;
    if (!ps->seen_magic)
        dgi_parse_error(ps, 1, 1, "expected 'prefabs 1' as the first line");
    if (ps->state == PREFAB_ST_LEGEND)
        dgi_parse_error(ps, ps->legend_line, 1, "legend is not closed by 'end'");
    if (ps->state == PREFAB_ST_LEGEND && ps->legend_in_prefab)
        ps->state = PREFAB_ST_HEADER;
    if (ps->state == PREFAB_ST_HEADER)
        prefab_abandon(ps, "has no 'map'");
    else if (ps->state == PREFAB_ST_MAP)
        prefab_abandon(ps, "has no 'end' after its map");
}

static void set_release(dg_prefab_set *s)
{
    const dg_allocator *a = dgi_set_alloc(s);
    dgi_free(a, s->prefabs, (size_t)s->cap_prefabs * sizeof *s->prefabs);
    dgi_free(a, s->cells, s->cells_cap);
    dgi_free(a, s->legends, (size_t)s->cap_legends * sizeof *s->legends);
    dgi_free(a, s->subs, (size_t)s->cap_subs * sizeof *s->subs);
    dgi_free(a, s->choices, (size_t)s->cap_choices * sizeof *s->choices);
    dgi_free(a, s->reqs, (size_t)s->cap_reqs * sizeof *s->reqs);
    dgi_free(a, s->tags, (size_t)s->cap_tags * sizeof *s->tags);
    dgi_free(a, s->glyph_names, (size_t)s->cap_glyph_names * sizeof *s->glyph_names);
    dgi_free(a, s->groups, (size_t)s->cap_groups * sizeof *s->groups);
    dgi_free(a, s->names, (size_t)s->name_cap * sizeof *s->names);
    dgi_free(a, s->picks, (size_t)s->pick_total * sizeof *s->picks);
    dgi_free(a, s->random_cells, s->random_cells ? dgi_random_bytes(s) : 0);
    dg_allocator copy = s->alloc;
    dgi_free(s->has_alloc ? &copy : NULL, s, sizeof *s);
}

void dg_prefab_set_free(dg_prefab_set *set)
{
    if (set)
        set_release(set);
}

dg_status dg_prefab_parse(const char *text, size_t length, const char *source_name,
                          const dg_allocator *allocator, dg_diag_fn on_error, void *user,
                          dg_prefab_set **set, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_parse: set is NULL");
    *set = NULL;
    if (!text && length > 0)
        return dgi_fail(diag, DG_E_NULL, "prefab_parse: text is NULL");
    if (length > (size_t)INT32_MAX)
        return dgi_fail(diag, DG_E_TOO_LARGE, "prefab_parse: input over 2 GiB");
    prefab_parser *ps = dgi_alloc(allocator, sizeof *ps);
    dg_prefab_set *s = dgi_calloc(allocator, 1, sizeof *s);
    if (!ps || !s)
    {
        dgi_free(allocator, ps, sizeof *ps);
        dgi_free(allocator, s, sizeof *s);
        return dgi_fail(diag, DG_E_NOMEM, "prefab_parse: out of memory");
    }
    if (allocator && allocator->alloc)
    {
        s->alloc = *allocator;
        s->has_alloc = 1;
    }
    dgi_diag_ok(diag);
    memset(ps, 0, offsetof(prefab_parser, tok));
    ps->in = dgi_text_lines_of(text, length, DGI_TEXT_BOM | DGI_TEXT_CR);
    ps->err = (dgi_text_errors){.source = source_name ? source_name : "<input>", .diag = diag,
                                .on_error = on_error, .user = user, .max = DG_PREFAB_MAX_ERRORS};
    ps->set = s;
    ps->file_snapshot = -1;
    ps->allowed_legend = -1;
    memset(ps->flow.counts, 0, sizeof ps->flow.counts);
    memset(ps->flow.lanes, 0, sizeof ps->flow.lanes);
    memset(ps->flow.lo, 0, sizeof ps->flow.lo);
    memset(ps->flow.hi, 0, sizeof ps->flow.hi);
    memset(ps->passable, 0, sizeof ps->passable);
    /* every cell is a byte of the input: one allocation of its size (if it can
     * be had) spares the copies and page faults of a doubling buffer */
    s->cells = length ? dgi_alloc(allocator, length) : NULL;
    s->cells_cap = s->cells ? length : 0;
    if (dgi_parse_default_legend(ps))
        run(ps);
    dg_status st = ps->err.status;
    if (st == DG_OK && (dgi_pick_build(s) != DG_OK || dgi_solid_build(s) != DG_OK || dgi_random_build(s) != DG_OK))
        st = dgi_fail(diag, DG_E_NOMEM, "%s: out of memory while indexing prefabs", ps->err.source);
    dgi_free(allocator, ps, sizeof *ps);
    if (st != DG_OK)
    {
        set_release(s);
        return st;
    }
    *set = s;
    return DG_OK;
}

dg_status dg_prefab_load(const char *path, const dg_allocator *allocator, dg_diag_fn on_error,
                         void *user, dg_prefab_set **set, dg_diag *diag)
{
    if (!set)
        return dgi_fail(diag, DG_E_NULL, "prefab_load: set is NULL");
    *set = NULL;
    if (!path)
        return dgi_fail(diag, DG_E_NULL, "prefab_load: path is NULL");
    char *buf;
    size_t cap, len;
    dg_status st = dgi_read_file(path, DGI_PREFAB_FILE_MAX, "prefab file", allocator, &buf, &cap,
                                 &len, diag);
    if (st == DG_OK)
        st = dg_prefab_parse(buf, len, path, allocator, on_error, user, set, diag);
    dgi_free(allocator, buf, cap);
    return st;
}

