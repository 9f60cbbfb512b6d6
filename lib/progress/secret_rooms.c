/* Dead-end rooms behind secret doors (docs/progression.md, "Secret doors"):
 * dg_lock_place hides some rooms that only one door leads to and that hold
 * nothing the way to the exit needs. The open cells other than doors fall
 * into areas (4-connected); an area next to exactly one door, holding no
 * start, exit, key, lock, anchor or stairs, no larger than an eighth of the
 * map, starting inside a room's rect at that door, whose door opens onto just
 * one open cell outside it (and that no door), is a dead-end room: shutting
 * its door cuts off that area alone. One such room in four (rounded up) times
 * the secret share is hidden, drawn with the placement's random stream. Work:
 * one pass over the cells. */
#include "analysis/analysis.h"
#include "progress/progress.h"

enum { KEEP = -2, UNSEEN = -1 };

static int room_cell(uint8_t t)
{
    return dgi_passable_default[t] && t != DG_TILE_DOOR && t != DG_TILE_DOOR_LOCKED &&
           t != DG_TILE_DOOR_SECRET;
}

/* Grid point p stays in reach (a caller's marker may lie off the grid: skipped). */
static void keep_point(const dgi_hide *h, int32_t *label, dg_point p)
{
    int32_t w = h->pw - 2, rows = h->n / h->pw - 2;
    if (p.x >= 0 && p.y >= 0 && p.x < w && p.y < rows)
        label[(p.y + 1) * h->pw + p.x + 1] = KEEP;
}

/* Cells that must stay in reach, and doors that may not turn secret: KEEP. */
static void mark_keep(const dgi_hide *h, int32_t *label)
{
    for (int32_t c = 0; c < h->n; c++)
        label[c] = UNSEEN;
    label[h->start] = label[h->exit] = KEEP;
    for (int32_t i = 0; i < h->key_count; i++)
        if (h->keys[i] >= 0)
            label[h->keys[i]] = KEEP;
    for (int32_t i = 0; i < h->locked_count; i++)
        label[h->locked[i]] = KEEP;
    for (int32_t i = 0; i < *h->secret_count; i++)
        label[h->secret[i]] = KEEP;
    for (int32_t i = 0; i < h->anchor_count; i++)
        keep_point(h, label, h->anchors[i]);
    for (int32_t i = 0; i < h->result->marker_count; i++) /* a floor's other stairs */
    {
        const dg_marker *m = &h->result->markers[i];
        if (m->kind == DG_MARKER_STAIRS_UP || m->kind == DG_MARKER_STAIRS_DOWN)
            keep_point(h, label, m->pos);
    }
}

/* The area of cell c0 (label a): returns its only door if it is a dead end
 * with nothing kept inside, else -1. */
static int32_t flood_area(const dgi_hide *h, int32_t c0, int32_t a, int32_t *label,
                          int32_t *stack)
{
    const int32_t side[4] = {-h->pw, 1, h->pw, -1};
    int32_t top = 0, size = 0, door = -1, bad = label[c0] == KEEP;
    label[c0] = a;
    stack[top++] = c0;
    while (top > 0)
    {
        int32_t c = stack[--top];
        size++;
        for (int k = 0; k < 4; k++)
        {
            int32_t d = c + side[k];
            uint8_t t = h->tile[d];
            if (t == DG_TILE_DOOR)
                bad |= door >= 0 && door != d, door = door < 0 ? d : door;
            else if (room_cell(t) && label[d] < 0)
            {
                bad |= label[d] == KEEP;
                label[d] = a;
                stack[top++] = d;
            }
        }
    }
    return bad || door < 0 || label[door] == KEEP || size > h->n / 8 ? -1 : door;
}

/* 1 if shutting the door cuts off area a alone: exactly one open cell
 * beside it lies outside a and it is no door (a door onto another door, or
 * one that a third open cell such as an alcove also opens onto, would shut
 * more than a), and a's cell beside it lies in a room's rect. */
static int hides_room(const dgi_hide *h, int32_t door, int32_t a, const int32_t *label)
{
    const int32_t side[4] = {-h->pw, 1, h->pw, -1};
    int out = 0, room = 0;
    for (int k = 0; k < 4; k++)
    {
        int32_t d = door + side[k];
        if (!dgi_passable_default[h->tile[d]])
            continue;
        if (label[d] == a)
            room |= dgi_result_room_at(h->result, (dg_point){d % h->pw - 1, d / h->pw - 1}) >= 0;
        else if (!room_cell(h->tile[d]) || out++)
            return 0;
    }
    return out && room;
}

dg_status dgi_secret_rooms(const dgi_hide *h, dg_rng *rng, const dg_allocator *alloc)
{
    if (h->permille <= 0)
        return DG_OK;
    size_t bytes = (size_t)h->n * 3 * sizeof(int32_t);
    int32_t *label = dgi_alloc(alloc, bytes);
    if (!label)
        return DG_E_NOMEM;
    int32_t *stack = label + h->n, *found = stack + h->n, count = 0, areas = 0;
    mark_keep(h, label);
    for (int32_t c = 0; c < h->n; c++)
        if (label[c] < 0 && room_cell(h->tile[c]))
        {
            int32_t a = areas++, door = flood_area(h, c, a, label, stack);
            if (door >= 0 && hides_room(h, door, a, label))
                found[count++] = door, label[door] = KEEP; /* listed once */
        }
    int32_t hide = (int32_t)(((int64_t)count * h->permille + 3999) / 4000);
    for (int32_t i = 0; i < hide; i++) /* a seeded draw of `hide` of them, in draw order */
    {
        int32_t j = i + (int32_t)dgi_rng_below(rng, (uint32_t)(count - i)), t = found[j];
        found[j] = found[i];
        h->secret[(*h->secret_count)++] = t;
    }
    dgi_free(alloc, label, bytes);
    return DG_OK;
}
