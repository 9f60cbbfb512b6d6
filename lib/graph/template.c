/* Room templates of a level graph: which prefabs of the graph's set can be
 * a room, and where their door cells lie in an orientation. A template room
 * is the prefab's box: its border ring is the room's wall (walls, doors and
 * void only), the cells inside are the room, and a door cell on the border
 * with an always-walkable cell behind it is a place where an edge may attach
 * (docs/graph-format.md, section 5). */
#include "graph/graph.h"
#include "prefab/prefab.h"

static const dgi_glyph *glyph_of(const dg_prefab_set *set, const dgi_prefab *p, int32_t x, int32_t y)
{
    uint8_t c = set->cells[p->cells + (size_t)y * (size_t)p->width + (size_t)x];
    return &set->legends[p->legend].glyph[c & 127];
}

static int always_open(const dg_prefab_set *set, const dgi_prefab *p, int32_t x, int32_t y)
{
    uint8_t c = set->cells[p->cells + (size_t)y * (size_t)p->width + (size_t)x];
    return dgi_glyph_in(p->certain, c);
}

/* The side (0 N, 1 E, 2 S, 3 W) of border cell (x, y), -1 on a corner. */
static int border_side(const dgi_prefab *p, int32_t x, int32_t y)
{
    int corner = (x == 0 || x == p->width - 1) && (y == 0 || y == p->height - 1);
    return corner ? -1 : y == 0 ? 0 : x == p->width - 1 ? 1 : y == p->height - 1 ? 2 : 3;
}

/* 1 if border cell (x, y) is a door an edge can use: its cell inside is always walkable. */
static int door_usable(const dg_prefab_set *set, const dgi_prefab *p, int32_t x, int32_t y)
{
    static const int dx[4] = {0, -1, 0, 1}, dy[4] = {1, 0, -1, 0}; /* inward, by side */
    int side = border_side(p, x, y);
    return side >= 0 && glyph_of(set, p, x, y)->cls == DGI_CLASS_DOOR &&
           always_open(set, p, x + dx[side], y + dy[side]);
}

int32_t dgi_template_door_count(const dg_prefab_set *set, int32_t index)
{
    const dgi_prefab *p = &set->prefabs[index];
    int32_t doors = 0;
    if (p->width < 3 || p->height < 3)
        return 0;
    for (int32_t y = 0; y < p->height; y++)
        for (int32_t x = 0; x < p->width; x += (y == 0 || y == p->height - 1) ? 1 : p->width - 1)
            doors += door_usable(set, p, x, y);
    return doors;
}

/* 1 if no border cell but a door can ever be walked on. */
static int border_closed(const dg_prefab_set *set, const dgi_prefab *p)
{
    for (int32_t y = 0; y < p->height; y++)
        for (int32_t x = 0; x < p->width; x += (y == 0 || y == p->height - 1) ? 1 : p->width - 1)
        {
            uint8_t c = set->cells[p->cells + (size_t)y * (size_t)p->width + (size_t)x];
            if (dgi_glyph_in(p->maybe, c) && glyph_of(set, p, x, y)->cls != DGI_CLASS_DOOR)
                return 0;
        }
    return 1;
}

/* 1 if the always-walkable cells inside the border form one 4-connected
 * region and every sometimes-walkable one touches it; seen and queue hold
 * (w-2)*(h-2) entries. */
static int inside_connected(const dg_prefab_set *set, const dgi_prefab *p, uint8_t *seen, int32_t *queue)
{
    int32_t iw = p->width - 2, ih = p->height - 2, head = 0, tail = 0, open = 0;
    for (int32_t i = 0; i < iw * ih; i++)
    {
        seen[i] = 0;
        if (always_open(set, p, 1 + i % iw, 1 + i / iw))
        {
            open++;
            if (!tail)
                queue[tail++] = i, seen[i] = 1;
        }
    }
    while (head < tail)
    {
        int32_t i = queue[head++], x = i % iw, y = i / iw;
        int32_t next[4] = {x > 0 ? i - 1 : -1, x + 1 < iw ? i + 1 : -1, y > 0 ? i - iw : -1,
                           y + 1 < ih ? i + iw : -1};
        for (int k = 0; k < 4; k++)
            if (next[k] >= 0 && !seen[next[k]] && always_open(set, p, 1 + next[k] % iw, 1 + next[k] / iw))
                seen[next[k]] = 1, queue[tail++] = next[k];
    }
    if (tail != open)
        return 0;
    for (int32_t i = 0; i < iw * ih; i++)
    {
        int32_t x = i % iw, y = i / iw;
        uint8_t c = set->cells[p->cells + (size_t)(y + 1) * (size_t)p->width + (size_t)(x + 1)];
        if (seen[i] || !dgi_glyph_in(p->maybe, c))
            continue;
        if (!((x > 0 && seen[i - 1]) || (x + 1 < iw && seen[i + 1]) || (y > 0 && seen[i - iw]) ||
              (y + 1 < ih && seen[i + iw])))
            return 0;
    }
    return 1;
}

dg_status dgi_template_rooms(const dg_prefab_set *set, const dg_allocator *a, int32_t *doors)
{
    size_t most = 1;
    for (int32_t i = 0; i < set->count; i++)
        if (set->prefabs[i].width >= 3 && set->prefabs[i].height >= 3)
        {
            size_t cells = (size_t)(set->prefabs[i].width - 2) * (size_t)(set->prefabs[i].height - 2);
            most = cells > most ? cells : most;
        }
    uint8_t *seen = dgi_alloc(a, most);
    int32_t *queue = dgi_alloc(a, most * sizeof *queue);
    dg_status st = seen && queue ? DG_OK : DG_E_NOMEM;
    for (int32_t i = 0; st == DG_OK && i < set->count; i++)
    {
        const dgi_prefab *p = &set->prefabs[i];
        doors[i] = dgi_template_door_count(set, i);
        if (doors[i] && !(border_closed(set, p) && inside_connected(set, p, seen, queue)))
            doors[i] = 0;
    }
    dgi_free(a, seen, most);
    dgi_free(a, queue, most * sizeof *queue);
    return st;
}

static void oriented_door(const dgi_prefab *p, int32_t o, int32_t x, int32_t y, dgi_tdoor *d)
{
    dg_point q = dgi_orient_point(o, p->width, p->height, (dg_point){x, y});
    int32_t w = dgi_orient_swaps(o) ? p->height : p->width, h = dgi_orient_swaps(o) ? p->width : p->height;
    d->x = q.x, d->y = q.y;
    d->side = q.y == 0 ? 0 : q.x == w - 1 ? 1 : q.y == h - 1 ? 2 : 3;
}

int32_t dgi_template_doors(const dg_prefab_set *set, int32_t index, int32_t o, dgi_tdoor *out,
                           int32_t max)
{
    const dgi_prefab *p = &set->prefabs[index];
    int32_t n = 0;
    for (int32_t y = 0; y < p->height && n < max; y++)
        for (int32_t x = 0; x < p->width && n < max;
             x += (y == 0 || y == p->height - 1) ? 1 : p->width - 1)
            if (door_usable(set, p, x, y))
                oriented_door(p, o, x, y, &out[n++]);
    return n;
}

void dgi_template_size(const dg_prefab_set *set, int32_t index, int32_t o, int32_t *w, int32_t *h)
{
    const dgi_prefab *p = &set->prefabs[index];
    *w = dgi_orient_swaps(o) ? p->height : p->width;
    *h = dgi_orient_swaps(o) ? p->width : p->height;
}

int32_t dgi_template_orientations(const dg_prefab_set *set, int32_t index)
{
    return set->prefabs[index].distinct;
}

void dgi_template_wall_doors(const dg_prefab_set *set, int32_t index, int32_t o, dg_grid *g, int32_t x0,
                             int32_t y0)
{
    const dgi_prefab *p = &set->prefabs[index];
    for (int32_t y = 0; y < p->height; y++)
        for (int32_t x = 0; x < p->width; x += (y == 0 || y == p->height - 1) ? 1 : p->width - 1)
            if (glyph_of(set, p, x, y)->cls == DGI_CLASS_DOOR)
            {
                dgi_tdoor d;
                oriented_door(p, o, x, y, &d);
                DG_CELL(g, x0 + d.x, y0 + d.y) = DG_TILE_WALL;
            }
}
