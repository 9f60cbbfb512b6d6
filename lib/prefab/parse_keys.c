/* The prefab parser's header keys (parse_state.h): mode, orient, size,
 * exits, tags, the substitutions (pick, pick-once, count) and require, and
 * what they share (a key given once, its values). */
#include "prefab/parse_state.h"

#define MAX_TAGS 16
#define MAX_SUBS 64
#define MAX_REQS 32

/* ---- prefab header keys -------------------------------------------------------------- */

int dgi_parse_once(prefab_parser *ps, int key)
{
    if (ps->keys & key)
    {
        char b[40];
        dgi_parse_error(ps, ps->in.line, ps->tok[0].col, "'%s' is given twice", dgi_parse_tok_str(&ps->tok[0], b, sizeof b));
        return 0;
    }
    ps->keys |= key;
    return 1;
}

int dgi_parse_need_args(prefab_parser *ps, int32_t min)
{
    if (ps->ntok - 1 >= min)
        return 1;
    char b[40];
    dgi_parse_error(ps, ps->in.line, ps->tok[0].col + ps->tok[0].n, "'%s' needs %s",
         dgi_parse_tok_str(&ps->tok[0], b, sizeof b), min == 1 ? "a value" : "more values");
    return 0;
}

void dgi_parse_key_mode(prefab_parser *ps)
{
    static const char *const modes[] = {"full", "jigsaw", "island", "furnish"};
    if (!dgi_parse_once(ps, PREFAB_KEY_MODE) || !dgi_parse_need_args(ps, 1))
        return;
    ps->p->modes = 0;
    for (int32_t i = 1; i < ps->ntok; i++)
    {
        int m = prefab_lookup_word(&ps->tok[i], modes, 4);
        if (m < 0)
        {
            char b[40];
            dgi_parse_error(ps, ps->in.line, ps->tok[i].col,
                 "unknown mode '%s' (expected full jigsaw island furnish)",
                 dgi_parse_tok_str(&ps->tok[i], b, sizeof b));
            return;
        }
        ps->p->modes |= 1 << m;
    }
}

void dgi_parse_key_orient(prefab_parser *ps)
{
    static const char *const words[] = {"r0", "r90", "r180", "r270", "h", "v", "d", "a",
                                        "all", "rot", "flip", "none"};
    static const int32_t masks[] = {1, 2, 4, 8, 16, 32, 64, 128, 0xFF, 0x0F, 0x35, 1};
    if (!dgi_parse_once(ps, PREFAB_KEY_ORIENT) || !dgi_parse_need_args(ps, 1))
        return;
    ps->p->orientations = 0;
    for (int32_t i = 1; i < ps->ntok; i++)
    {
        int w = prefab_lookup_word(&ps->tok[i], words, 12);
        if (w < 0)
        {
            char b[40];
            dgi_parse_error(ps, ps->in.line, ps->tok[i].col,
                 "unknown orientation '%s' (expected r0 r90 r180 r270 h v d a all rot flip none)",
                 dgi_parse_tok_str(&ps->tok[i], b, sizeof b));
            return;
        }
        ps->p->orientations |= masks[w];
    }
}

void dgi_parse_key_size(prefab_parser *ps)
{
    if (!dgi_parse_once(ps, PREFAB_KEY_SIZE) || !dgi_parse_need_args(ps, 1))
        return;
    const prefab_token *t = &ps->tok[1];
    int32_t x = -1, w, h;
    for (int32_t i = 0; i < t->n; i++)
        if (t->s[i] == 'x')
            x = i;
    if (x < 0 || !dgi_parse_uint(t->s, x, &w) || !dgi_parse_uint(t->s + x + 1, t->n - x - 1, &h))
    {
        char b[40];
        dgi_parse_error(ps, ps->in.line, t->col, "size must be WxH (e.g. 7x5), got '%s'", dgi_parse_tok_str(t, b, sizeof b));
        return;
    }
    ps->size_w = w;
    ps->size_h = h;
    ps->size_line = ps->in.line;
    ps->size_col = t->col;
}

void dgi_parse_key_exits(prefab_parser *ps)
{
    static const char *const sides[] = {"N", "E", "S", "W"};
    if (!dgi_parse_once(ps, PREFAB_KEY_EXITS) || !dgi_parse_need_args(ps, 1))
        return;
    ps->exits = 0;
    ps->exits_line = ps->in.line;
    ps->exits_col = ps->tok[1].col;
    if (ps->ntok == 2 && PREFAB_TOK_IS(&ps->tok[1], "none"))
        return;
    for (int32_t i = 1; i < ps->ntok; i++)
    {
        int s = prefab_lookup_word(&ps->tok[i], sides, 4);
        if (s < 0)
        {
            char b[40];
            dgi_parse_error(ps, ps->in.line, ps->tok[i].col, "unknown side '%s' (expected N E S W or none)",
                 dgi_parse_tok_str(&ps->tok[i], b, sizeof b));
            ps->exits = -1;
            return;
        }
        ps->exits |= 1 << s;
    }
}

void dgi_parse_key_tags(prefab_parser *ps)
{
    if (!dgi_parse_need_args(ps, 1))
        return;
    for (int32_t i = 1; i < ps->ntok; i++)
    {
        if (ps->p->tag_count >= MAX_TAGS)
        {
            dgi_parse_error(ps, ps->in.line, ps->tok[i].col, "more than %d tags", MAX_TAGS);
            return;
        }
        dgi_tag tag;
        memset(&tag, 0, sizeof tag);
        if (!dgi_parse_take_name(ps, &ps->tok[i], "tag", tag.name) || !PREFAB_GROW(ps, tags, tag_count, cap_tags))
            return;
        ps->set->tags[ps->set->tag_count++] = tag;
        ps->p->tag_count++;
    }
}

/* A glyph operand of pick/count/require: exactly one glyph character. */
static int take_glyph(prefab_parser *ps, const prefab_token *t, uint8_t *out)
{
    if (t->n != 1 || !prefab_is_glyph((uint8_t)t->s[0]))
    {
        char b[40];
        dgi_parse_error(ps, ps->in.line, t->col, "expected one glyph character, got '%s'", dgi_parse_tok_str(t, b, sizeof b));
        return 0;
    }
    *out = (uint8_t)t->s[0];
    return 1;
}

static int add_choice(prefab_parser *ps, uint8_t glyph, int32_t amount, int32_t col)
{
    if (!PREFAB_GROW(ps, choices, choice_count, cap_choices))
        return 0;
    dgi_choice ch = {glyph, amount, ps->in.line, col};
    ps->set->choices[ps->set->choice_count++] = ch;
    return 1;
}

/* pick G = A[:w] ... | pick-once G = ... | count G = N:A ... [rest:B] */
void dgi_parse_key_sub(prefab_parser *ps, int kind)
{
    char b[40];
    if (!dgi_parse_need_args(ps, 2))
        return;
    if (ps->p->sub_count >= MAX_SUBS)
    {
        dgi_parse_error(ps, ps->in.line, ps->tok[0].col, "more than %d substitutions", MAX_SUBS);
        return;
    }
    dgi_sub sub;
    memset(&sub, 0, sizeof sub);
    sub.kind = (uint8_t)kind;
    sub.line = ps->in.line;
    sub.column = ps->tok[1].col;
    sub.first = ps->set->choice_count;
    if (!take_glyph(ps, &ps->tok[1], &sub.glyph))
        return;
    if (!PREFAB_TOK_IS(&ps->tok[2], "="))
    {
        dgi_parse_error(ps, ps->in.line, ps->tok[2].col, "expected '=' after the glyph, got '%s'",
             dgi_parse_tok_str(&ps->tok[2], b, sizeof b));
        return;
    }
    for (int32_t i = 3; i < ps->ntok; i++)
    {
        const prefab_token *t = &ps->tok[i];
        uint8_t g;
        int32_t amount = 1;
        if (kind == DGI_SUB_COUNT)
        {
            int32_t colon = -1;
            for (int32_t k = 0; k < t->n && colon < 0; k++)
                if (t->s[k] == ':')
                    colon = k;
            int rest = colon == 4 && memcmp(t->s, "rest", 4) == 0;
            if (colon < 0 || t->n != colon + 2 || !prefab_is_glyph((uint8_t)t->s[colon + 1]) ||
                (!rest && !dgi_parse_uint(t->s, colon, &amount)))
            {
                dgi_parse_error(ps, ps->in.line, t->col, "expected N:G or rest:G, got '%s'", dgi_parse_tok_str(t, b, sizeof b));
                return;
            }
            g = (uint8_t)t->s[colon + 1];
            if (rest)
            {
                if (i != ps->ntok - 1)
                {
                    dgi_parse_error(ps, ps->in.line, t->col, "'rest:' must come last");
                    return;
                }
                sub.rest = g;
                sub.rest_column = t->col + colon + 1;
                continue;
            }
        }
        else
        {
            if (!prefab_is_glyph((uint8_t)t->s[0]) ||
                (t->n > 1 && (t->s[1] != ':' || !dgi_parse_uint(t->s + 2, t->n - 2, &amount))))
            {
                dgi_parse_error(ps, ps->in.line, t->col, "expected G or G:weight, got '%s'", dgi_parse_tok_str(t, b, sizeof b));
                return;
            }
            g = (uint8_t)t->s[0];
            if (amount > PREFAB_MAX_WEIGHT)
            {
                dgi_parse_error(ps, ps->in.line, t->col, "weight must be at most %d", PREFAB_MAX_WEIGHT);
                return;
            }
        }
        if (!add_choice(ps, g, amount, kind == DGI_SUB_COUNT ? t->col + t->n - 1 : t->col))
            return;
        sub.total += amount;
        sub.count++;
    }
    if (sub.count == 0)
    {
        dgi_parse_error(ps, ps->in.line, ps->tok[2].col + 1, "no choices after '='");
        return;
    }
    if (kind != DGI_SUB_COUNT && sub.total == 0)
    {
        dgi_parse_error(ps, ps->in.line, ps->tok[3].col, "the weights add up to 0");
        return;
    }
    if (!PREFAB_GROW(ps, subs, sub_count, cap_subs))
        return;
    ps->set->subs[ps->set->sub_count++] = sub;
    ps->p->sub_count++;
}

/* require G|NAME MIN[-MAX|+] */
void dgi_parse_key_require(prefab_parser *ps)
{
    if (!dgi_parse_need_args(ps, 2))
        return;
    if (ps->ntok > 3)
    {
        dgi_parse_error(ps, ps->in.line, ps->tok[3].col, "'require' takes a glyph or name and a count");
        return;
    }
    if (ps->p->req_count >= MAX_REQS)
    {
        dgi_parse_error(ps, ps->in.line, ps->tok[0].col, "more than %d requirements", MAX_REQS);
        return;
    }
    dgi_require r;
    memset(&r, 0, sizeof r);
    r.line = ps->in.line;
    r.column = ps->tok[1].col;
    if (ps->tok[1].n == 1)
    {
        if (!take_glyph(ps, &ps->tok[1], &r.glyph))
            return;
    }
    else if (!dgi_parse_take_name(ps, &ps->tok[1], "name", r.name))
        return;
    if (!dgi_parse_range(&ps->tok[2], &r.min, &r.max))
    {
        char b[40];
        dgi_parse_error(ps, ps->in.line, ps->tok[2].col, "count must be N, N-M or N+, got '%s'",
             dgi_parse_tok_str(&ps->tok[2], b, sizeof b));
        return;
    }
    if (r.max < 0)
        r.max = INT32_MAX;
    if (!PREFAB_GROW(ps, reqs, req_count, cap_reqs))
        return;
    ps->set->reqs[ps->set->req_count++] = r;
    ps->p->req_count++;
}
