/* The role table text format (docs/content.md): one rule per line, its name
 * then key=value words; '#' starts a comment. One pass over a buffer that need
 * not be NUL-terminated; every error is "source:line:col: message". */
#include "content/content.h"

#include <stdio.h>

#define ROLES_FILE_MAX ((size_t)1 << 20) /* bytes dg_roles_load reads at most */

typedef struct rparser {
    dgi_text_errors err; /* the source's name and the first error, which ends the parse */
    dgi_text_lines in;   /* the input, and the number of the line being read */
} rparser;

typedef struct word {
    const char *s;
    int32_t n, col;
} word;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(DGI_PRINTF_FORMAT, 4, 5)))
#endif
static dg_status perr(rparser *p, dg_status st, int32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dgi_text_verror(&p->err, st, p->in.line, col, fmt, ap);
    va_end(ap);
    return st;
}

static int word_is(word w, const char *s)
{
    return (size_t)w.n == strlen(s) && memcmp(w.s, s, (size_t)w.n) == 0;
}

/* An integer of w's bytes [from, to): DG_OK, DG_E_PARSE (not a number) or
 * DG_E_INVALID (beyond int32). */
static dg_status number(rparser *p, word w, int32_t from, int32_t to, int32_t *out)
{
    int neg = from < to && w.s[from] == '-';
    int32_t i = from + neg;
    if (i >= to)
        return perr(p, DG_E_PARSE, w.col + from, "expected a number");
    int64_t v = 0;
    for (; i < to; i++)
    {
        if (w.s[i] < '0' || w.s[i] > '9')
            return perr(p, DG_E_PARSE, w.col + i, "expected a digit, not '%c'", w.s[i]);
        if (v <= INT32_MAX)
            v = v * 10 + (w.s[i] - '0');
    }
    v = neg ? -v : v;
    if (v > INT32_MAX || v < INT32_MIN)
        return perr(p, DG_E_INVALID, w.col + from, "number out of range");
    *out = (int32_t)v;
    return DG_OK;
}

/* A range "A", "A..B", "A.." or "..B" (open ends take lo and hi) within [lo, hi]. */
static dg_status range(rparser *p, word w, int32_t lo, int32_t hi, int32_t *a, int32_t *b)
{
    int32_t dots = -1;
    for (int32_t i = 0; i + 1 < w.n && dots < 0; i++)
        if (w.s[i] == '.' && w.s[i + 1] == '.')
            dots = i;
    dg_status st;
    if (dots < 0)
    {
        st = number(p, w, 0, w.n, a);
        *b = *a;
    }
    else
    {
        *a = lo, *b = hi;
        st = dots > 0 ? number(p, w, 0, dots, a) : DG_OK;
        if (st == DG_OK && dots + 2 < w.n)
            st = number(p, w, dots + 2, w.n, b);
    }
    if (st != DG_OK)
        return st;
    if (*a < lo || *b > hi)
        return perr(p, DG_E_INVALID, w.col, "range outside %d..%d", (int)lo, (int)hi);
    if (*a > *b)
        return perr(p, DG_E_INVALID, w.col, "range min %d over max %d", (int)*a, (int)*b);
    return DG_OK;
}

/* Index of w among the words of list ("a|b|c"), stored in *out; else DG_E_INVALID. */
static dg_status choice(rparser *p, word w, const char *key, const char *list, int32_t *out)
{
    int32_t i = 0;
    for (const char *s = list; *s; i++)
    {
        const char *e = strchr(s, '|');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if ((size_t)w.n == len && memcmp(w.s, s, len) == 0)
        {
            *out = i;
            return DG_OK;
        }
        s += len + (e != NULL);
    }
    return perr(p, DG_E_INVALID, w.col, "unknown %s '%.*s' (one of %s)", key, (int)w.n, w.s, list);
}

static const char *const keys[] = {"count", "weight", "rank", "route", "dead_end",
                                   "behind", "area", "entrances", "holds", "require"};
#define KEY_COUNT 10

/* One key=value word into rule r. */
static dg_status set_key(rparser *p, int32_t key, word v, dg_role_rule *r)
{
    switch (key)
    {
    case 0: return range(p, v, 0, INT32_MAX, &r->count_min, &r->count_max);
    case 1:
    {
        int32_t lo, hi;
        dg_status st = range(p, v, 0, 1000000, &lo, &hi);
        if (st == DG_OK && lo != hi)
            return perr(p, DG_E_INVALID, v.col, "weight is one number");
        r->weight = lo;
        return st;
    }
    case 2: return range(p, v, 0, DG_ROLE_RANK_MAX, &r->rank_min, &r->rank_max);
    case 3: return choice(p, v, "route", "any|on|off", &r->route);
    case 4: return choice(p, v, "dead_end", "any|yes|no", &r->dead_end);
    case 5: return choice(p, v, "behind", "any|open|lock|secret", &r->behind);
    case 6: return range(p, v, 0, INT32_MAX, &r->area_min, &r->area_max);
    case 7: return range(p, v, 0, INT32_MAX, &r->entrances_min, &r->entrances_max);
    case 8: return choice(p, v, "holds", "any|start|exit|key", &r->holds);
    default:
    {
        int32_t yes = 0;
        dg_status st = choice(p, v, "require", "no|yes", &yes);
        r->require = yes;
        return st;
    }
    }
}

/* Splits line [s, s + n) into words (a '#' ends it); DG_E_PARSE past max words. */
static int32_t split(const char *s, int32_t n, word *out, int32_t max)
{
    int32_t count = 0;
    for (int32_t i = 0; i < n;)
    {
        if (s[i] == '#')
            break;
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')
        {
            i++;
            continue;
        }
        int32_t j = i;
        while (j < n && s[j] != ' ' && s[j] != '\t' && s[j] != '\r' && s[j] != '#')
            j++;
        if (count == max)
            return -1;
        out[count].s = s + i, out[count].n = j - i, out[count].col = i + 1;
        count++;
        i = j;
    }
    return count;
}

/* One rule line of `count` words into r. */
static dg_status parse_rule(rparser *p, const word *w, int32_t count, dg_role_rule *r)
{
    if (memchr(w[0].s, '=', (size_t)w[0].n))
        return perr(p, DG_E_PARSE, w[0].col, "a rule starts with its role's name");
    if (!dgi_role_name_ok(w[0].s, (size_t)w[0].n))
        return perr(p, DG_E_INVALID, w[0].col,
                    "role name must be 1..31 letters, digits, '_', '-' or '.'");
    char name[DG_NAME_MAX];
    memcpy(name, w[0].s, (size_t)w[0].n);
    name[w[0].n] = '\0';
    dg_role_rule_init(r, name);
    uint32_t seen = 0;
    for (int32_t i = 1; i < count; i++)
    {
        const char *eq = memchr(w[i].s, '=', (size_t)w[i].n);
        if (!eq)
            return perr(p, DG_E_PARSE, w[i].col, "expected key=value, got '%.*s'", (int)w[i].n,
                        w[i].s);
        word k = {w[i].s, (int32_t)(eq - w[i].s), w[i].col};
        word v = {eq + 1, w[i].n - k.n - 1, w[i].col + k.n + 1};
        int32_t key = 0;
        while (key < KEY_COUNT && !word_is(k, keys[key]))
            key++;
        if (key == KEY_COUNT)
            return perr(p, DG_E_INVALID, k.col, "unknown key '%.*s'", (int)k.n, k.s);
        if (seen & (1u << key))
            return perr(p, DG_E_PARSE, k.col, "key '%s' repeated", keys[key]);
        seen |= 1u << key;
        if (v.n == 0)
            return perr(p, DG_E_PARSE, v.col, "key '%s' has no value", keys[key]);
        dg_status st = set_key(p, key, v, r);
        if (st != DG_OK)
            return st;
    }
    return DG_OK;
}

dg_status dg_roles_parse(const char *text, size_t length, const char *source_name,
                         dg_role_rule *rules, int32_t cap, int32_t *count, dg_diag *diag)
{
    if (!count || (!text && length > 0) || (!rules && cap > 0))
        return dgi_fail(diag, DG_E_NULL, "roles_parse: %s is NULL",
                        !count ? "count" : !text ? "text" : "rules");
    if (cap < 0)
        return dgi_fail(diag, DG_E_INVALID, "roles_parse: cap %d is negative", (int)cap);
    /* no flags: a byte order mark is refused below, and a '\r' is a blank */
    rparser p = {.err = {.source = source_name ? source_name : "roles", .diag = diag, .max = 1},
                 .in = dgi_text_lines_of(text, length, 0)};
    dg_role_rule table[DG_ROLES_MAX];
    int32_t n = 0;
    const char *s;
    size_t len;
    while ((s = dgi_text_next_line(&p.in, &len)) != NULL)
    {
        if (len > 4096)
            return perr(&p, DG_E_PARSE, 1, "line longer than 4096 bytes");
        int32_t ll = (int32_t)len;
        for (int32_t i = 0; i < ll; i++)
            if (s[i] == '\0' || (s[i] & 0x80) || (s[i] < ' ' && s[i] != '\t' && s[i] != '\r'))
                return perr(&p, DG_E_PARSE, i + 1, "unexpected byte 0x%02X",
                            (unsigned)(unsigned char)s[i]);
        word w[KEY_COUNT + 2];
        int32_t words = split(s, ll, w, KEY_COUNT + 2);
        if (words < 0)
            return perr(&p, DG_E_PARSE, 1, "more than %d words on a line", KEY_COUNT + 1);
        if (words == 0)
            continue;
        if (n == DG_ROLES_MAX)
            return perr(&p, DG_E_INVALID, 1, "more than %d rules", DG_ROLES_MAX);
        dg_status st = parse_rule(&p, w, words, &table[n]);
        if (st != DG_OK)
            return st;
        for (int32_t j = 0; j < n; j++)
            if (strcmp(table[j].name, table[n].name) == 0)
                return perr(&p, DG_E_INVALID, 1, "role '%s' already has a rule", table[n].name);
        n++;
    }
    if (n > cap)
        return dgi_fail(diag, DG_E_BUFFER, "%s: %d rules, room for %d", p.err.source, (int)n,
                        (int)cap);
    if (n > 0)
        memcpy(rules, table, (size_t)n * sizeof *rules);
    *count = n;
    dgi_diag_ok(diag);
    return DG_OK;
}

dg_status dg_roles_load(const char *path, dg_role_rule *rules, int32_t cap, int32_t *count,
                        dg_diag *diag)
{
    if (!path)
        return dgi_fail(diag, DG_E_NULL, "roles_load: path is NULL");
    if (!count || (!rules && cap > 0))
        return dgi_fail(diag, DG_E_NULL, "roles_load: %s is NULL", !count ? "count" : "rules");
    char *buf;
    size_t buf_cap, len;
    dg_status st = dgi_read_file(path, ROLES_FILE_MAX, "role table", NULL, &buf, &buf_cap, &len,
                                 diag);
    if (st == DG_OK)
        st = dg_roles_parse(buf, len, path, rules, cap, count, diag);
    dgi_free(NULL, buf, buf_cap);
    return st;
}
