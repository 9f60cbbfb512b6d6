/* The attach generator's shared lists: growing them, and opening a door
 * between two features. Both growth (attach.c) and the passes after it
 * (attach_graph.c, attach_post.c) use these, so they live below all three. */
#include "gen/attach_state.h"

dg_status dgi_att_grow(const att_ctx *c, void **array, int32_t *cap, int32_t need, size_t elem,
                       uint8_t *borrowed)
{
    if (!borrowed || !*borrowed)
        return dgi_grow(c->a, array, cap, need, elem);
    if (need <= *cap)
        return DG_OK;
    void *own = NULL;
    int32_t own_cap = 0;
    dg_status st = dgi_grow(c->a, &own, &own_cap, need, elem);
    if (st != DG_OK)
        return st;
    memcpy(own, *array, (size_t)*cap * elem);
    *array = own;
    *cap = own_cap;
    *borrowed = 0;
    return DG_OK;
}

/* The tile the door policy gives the junction of features a and b. */
static uint8_t junction_tile(const att_ctx *c, int32_t a, int32_t b)
{
    int room = c->feats[a].kind == ATT_ROOM || c->feats[b].kind == ATT_ROOM;
    int corridor = c->feats[a].kind == ATT_CORRIDOR || c->feats[b].kind == ATT_CORRIDOR;
    if (c->p->doors == DG_DOORS_ALL || (c->p->doors == DG_DOORS_ROOMS && room))
        return DG_TILE_DOOR;
    return corridor ? DG_TILE_CORRIDOR : DG_TILE_FLOOR;
}

/* Direction from the cell (x, y), next to feature f, to the interior cell it touches. */
static uint8_t into(const att_feat *f, int32_t x, int32_t y)
{
    if (x < f->x)
        return DG_DIR_E;
    if (x >= f->x + f->w)
        return DG_DIR_W;
    return y < f->y ? DG_DIR_S : DG_DIR_N;
}

/* Opens (x, y) as the junction of features a (older) and b; the door array
 * must have room (reserve_feature) or grow here. */
int32_t dgi_att_door_add(att_ctx *c, int32_t x, int32_t y, int32_t a, int32_t b)
{
    dg_status st = DG_OK;
    if (c->ndoor + 1 > c->cap_door)
        ATT_GROW(c, c->doors, c->cap_door, c->ndoor + 1, &c->borrowed[1], st);
    if (st != DG_OK)
        return -1;
    int32_t i = c->ndoor++;
    att_door *d = &c->doors[i];
    d->x = (uint16_t)x;
    d->y = (uint16_t)y;
    d->a = a;
    d->b = b;
    d->next_a = c->feats[a].doors_head;
    d->next_b = c->feats[b].doors_head;
    d->dist = INT32_MAX;
    d->tile = junction_tile(c, a, b);
    d->into_a = into(&c->feats[a], x, y);
    d->into_b = into(&c->feats[b], x, y);
    c->feats[a].doors_head = i;
    c->feats[b].doors_head = i;
    *att_at(c, x, y) = d->tile;
    c->floor++;
    return i;
}
