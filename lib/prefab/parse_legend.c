/* The prefab parser's legends (parse_state.h): the built-in glyphs and the
 * entries of a file's or a prefab's own legend. */
#include "prefab/parse_state.h"

/* ---- legends ----------------------------------------------------------------------- */

static const char *const class_names[] = {"", "ground", "wall", "door", "trap",
                                          "actor", "marker", "void"};
static const char *const kind_names[] = {"generic", "actor", "item", "trap",
                                         "spawn", "start", "exit"};

/* A glyph of class cls named by glyph_names[name] (the class name if name < 0). */
static void set_glyph(dgi_legend *lg, uint8_t c, uint8_t cls, int32_t name)
{
    dgi_glyph *g = &lg->glyph[c];
    memset(g, 0, sizeof *g);
    g->cls = cls;
    g->name = name >= 0 ? name : cls;
    switch (cls)
    {
    case DGI_CLASS_GROUND: g->tile = DG_TILE_FLOOR; g->passable = 1; break;
    case DGI_CLASS_WALL: g->tile = DG_TILE_WALL; break;
    case DGI_CLASS_DOOR: g->tile = DG_TILE_DOOR; g->passable = 1; break;
    case DGI_CLASS_TRAP:
        g->tile = DG_TILE_TRAP;
        g->passable = 1;
        g->marker = 1 + DG_MARKER_TRAP;
        break;
    case DGI_CLASS_ACTOR:
        g->tile = DG_TILE_FLOOR;
        g->passable = 1;
        g->marker = 1 + DG_MARKER_ACTOR;
        break;
    case DGI_CLASS_MARKER:
        g->tile = DG_TILE_FLOOR;
        g->passable = 1;
        g->marker = 1 + DG_MARKER_GENERIC;
        break;
    default: break;
    }
}

/* Appends a glyph name; its index, or -1 out of memory. */
static int32_t add_glyph_name(prefab_parser *ps, const char *name)
{
    if (!PREFAB_GROW(ps, glyph_names, glyph_name_count, cap_glyph_names))
        return -1;
    dgi_tag *t = &ps->set->glyph_names[ps->set->glyph_name_count];
    size_t n = DG_MIN(strlen(name), sizeof t->name - 1);
    memset(t, 0, sizeof *t);
    memcpy(t->name, name, n);
    return ps->set->glyph_name_count++;
}

/* The class names (indices 0..7) and the built-in glyphs. */
int dgi_parse_default_legend(prefab_parser *ps)
{
    for (int cls = 0; cls < 8; cls++)
        if (add_glyph_name(ps, class_names[cls]) < 0)
            return 0;
    dgi_legend *lg = &ps->file_legend;
    memset(lg, 0, sizeof *lg);
    set_glyph(lg, '.', DGI_CLASS_GROUND, -1);
    set_glyph(lg, '#', DGI_CLASS_WALL, -1);
    set_glyph(lg, '+', DGI_CLASS_DOOR, -1);
    set_glyph(lg, '^', DGI_CLASS_TRAP, -1);
    set_glyph(lg, '_', DGI_CLASS_VOID, -1);
    return 1;
}

static int parse_tile(const prefab_token *t, int32_t *tile)
{
    if (dgi_parse_uint(t->s, t->n, tile))
        return *tile <= 255;
    for (int v = 0; v < DG_TILE_COUNT; v++)
    {
        if (prefab_tok_is_word(t, dg_tile_name((uint8_t)v)))
        {
            *tile = v;
            return 1;
        }
    }
    return 0;
}

static dgi_legend *active_legend(prefab_parser *ps)
{
    return ps->legend_in_prefab ? &ps->cur : &ps->file_legend;
}

static const char *const legend_keys[] = {"tile", "on", "kind"};

/* A `tile` value: a library tile name, a named library tile number
 * (0..DG_TILE_COUNT-1) or one of the caller's (DG_TILE_USER..255); the
 * numbers between are reserved for tiles the library may name later. */
static int legend_tile(prefab_parser *ps, const prefab_token *v, dgi_glyph *g)
{
    char b[40];
    int32_t tile;
    if (!parse_tile(v, &tile))
    {
        dgi_parse_error(ps, ps->in.line, v->col,
             "tile must be 0..255 or a tile name (floor, wall, stairs_down, ...), got '%s'",
             dgi_parse_tok_str(v, b, sizeof b));
        return 0;
    }
    if (tile >= DG_TILE_COUNT && tile < DG_TILE_USER)
    {
        dgi_parse_error(ps, ps->in.line, v->col,
             "tile %d is reserved by the library (use 0..%d, a tile name, or %d..255 for the "
             "game's own tiles)", (int)tile, DG_TILE_COUNT - 1, DG_TILE_USER);
        return 0;
    }
    g->tile = (uint8_t)tile;
    return 1;
}

/* `on CLASS` of a trap, actor or marker: what the cell is underneath. */
static int legend_on(prefab_parser *ps, const prefab_token *v, int tile_given, dgi_glyph *g)
{
    int on = prefab_lookup_word(v, class_names + 1, 7) + 1;
    if (on != DGI_CLASS_GROUND && on != DGI_CLASS_WALL && on != DGI_CLASS_TRAP)
    {
        char b[40];
        dgi_parse_error(ps, ps->in.line, v->col, "'on' must be ground, wall or trap, got '%s'",
             dgi_parse_tok_str(v, b, sizeof b));
        return 0;
    }
    if (!tile_given) /* an explicit `tile` wins, in either order */
        g->tile = on == DGI_CLASS_GROUND ? DG_TILE_FLOOR
                                         : on == DGI_CLASS_WALL ? DG_TILE_WALL : DG_TILE_TRAP;
    g->passable = on != DGI_CLASS_WALL;
    return 1;
}

/* One `KEY VALUE` pair of a legend entry of class cls (key[1] is the value);
 * *seen has a bit per key already given, as each may appear once. */
static int legend_option(prefab_parser *ps, int cls, const prefab_token *key, dgi_glyph *g, int *seen)
{
    char b[40];
    const prefab_token *v = key + 1;
    int k = prefab_lookup_word(key, legend_keys, 3);
    int marks = cls == DGI_CLASS_TRAP || cls == DGI_CLASS_ACTOR || cls == DGI_CLASS_MARKER;
    if (k < 0 || (k == 0 && cls == DGI_CLASS_VOID) || (k > 0 && !marks))
    {
        dgi_parse_error(ps, ps->in.line, key->col, "unexpected '%s' in a %s legend entry",
             dgi_parse_tok_str(key, b, sizeof b), class_names[cls]);
        return 0;
    }
    if (*seen & (1 << k))
    {
        dgi_parse_error(ps, ps->in.line, key->col, "'%s' is given twice in this legend entry", legend_keys[k]);
        return 0;
    }
    *seen |= 1 << k;
    if (k == 0)
        return legend_tile(ps, v, g);
    if (k == 1)
        return legend_on(ps, v, *seen & 1, g);
    int kind = prefab_lookup_word(v, kind_names, 7);
    if (kind < 0)
    {
        dgi_parse_error(ps, ps->in.line, v->col,
             "unknown marker kind '%s' (expected generic actor item trap spawn start exit)",
             dgi_parse_tok_str(v, b, sizeof b));
        return 0;
    }
    g->marker = (uint8_t)(1 + kind);
    return 1;
}

/* GLYPH CLASS [NAME] [tile T] [on CLASS] [kind K] */
void dgi_parse_legend_entry(prefab_parser *ps)
{
    const prefab_token *t = ps->tok;
    char b[40];
    if (t[0].n != 1 || !prefab_is_glyph((uint8_t)t[0].s[0]))
    {
        dgi_parse_error(ps, ps->in.line, t[0].col, "legend glyph must be one printable character, got '%s'",
             dgi_parse_tok_str(&t[0], b, sizeof b));
        return;
    }
    uint8_t c = (uint8_t)t[0].s[0];
    if (ps->legend_seen[c])
    {
        dgi_parse_error(ps, ps->in.line, t[0].col, "glyph '%c' appears twice in this legend", c);
        return;
    }
    ps->legend_seen[c] = 1;
    if (ps->ntok < 2)
    {
        dgi_parse_error(ps, ps->in.line, t[0].col + 1,
             "legend entry needs a class (ground wall door trap actor marker void)");
        return;
    }
    int cls = prefab_lookup_word(&t[1], class_names + 1, 7) + 1;
    if (cls <= 0)
    {
        dgi_parse_error(ps, ps->in.line, t[1].col,
             "unknown class '%s' (expected ground wall door trap actor marker void)",
             dgi_parse_tok_str(&t[1], b, sizeof b));
        return;
    }
    dgi_glyph g;
    dgi_legend tmp;
    set_glyph(&tmp, c, (uint8_t)cls, -1);
    g = tmp.glyph[c];
    int32_t i = 2;
    if (i < ps->ntok && prefab_lookup_word(&t[i], legend_keys, 3) < 0)
    {
        char name[DG_NAME_MAX];
        if (!dgi_parse_take_name(ps, &t[i], "glyph name", name) || (g.name = add_glyph_name(ps, name)) < 0)
            return;
        i++;
    }
    int seen = 0;
    for (; i < ps->ntok; i += 2)
    {
        if (i + 1 >= ps->ntok)
        {
            dgi_parse_error(ps, ps->in.line, t[i].col + t[i].n, "'%s' needs a value",
                 dgi_parse_tok_str(&t[i], b, sizeof b));
            return;
        }
        if (!legend_option(ps, cls, &t[i], &g, &seen))
            return;
    }
    active_legend(ps)->glyph[c] = g;
    if (!ps->legend_in_prefab)
        ps->file_snapshot = -1;
}

void dgi_parse_legend_begin(prefab_parser *ps, int in_prefab)
{
    if (ps->ntok > 1)
        dgi_parse_error(ps, ps->in.line, ps->tok[1].col, "'legend' takes no arguments");
    ps->legend_in_prefab = in_prefab;
    ps->legend_line = ps->in.line;
    memset(ps->legend_seen, 0, sizeof ps->legend_seen);
    if (in_prefab && !ps->cur_custom)
    {
        ps->cur = ps->file_legend;
        ps->cur_custom = 1;
    }
    ps->state = PREFAB_ST_LEGEND;
}
