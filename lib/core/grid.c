/* The caller-owned grid: validation, access, fill and hashing. */
#include "core/core.h"

static const char *const tile_names[DG_TILE_COUNT] = {
    "void", "floor", "corridor", "wall", "door", "trap", "stairs_up", "stairs_down",
    "obstacle", "water", "door_locked", "door_secret",
};

const char *dg_tile_name(uint8_t tile)
{
    if (tile < DG_TILE_COUNT)
        return tile_names[tile];
    return tile >= DG_TILE_USER ? "user" : "unknown";
}

int dg_tile_passable(uint8_t tile)
{
    switch (tile)
    {
    case DG_TILE_FLOOR:
    case DG_TILE_CORRIDOR:
    case DG_TILE_DOOR:
    case DG_TILE_DOOR_LOCKED:
    case DG_TILE_DOOR_SECRET:
    case DG_TILE_TRAP:
    case DG_TILE_STAIRS_UP:
    case DG_TILE_STAIRS_DOWN:
        return 1;
    default:
        return 0;
    }
}

static dg_status check_dims(const uint8_t *cells, int32_t width, int32_t height,
                            int32_t stride, dg_diag *diag)
{
    if (!cells)
        return dgi_fail(diag, DG_E_NULL, "grid cells pointer is NULL");
    if (width <= 0 || height <= 0)
        return dgi_fail(diag, DG_E_INVALID, "grid size %dx%d: width and height must be >= 1",
                        (int)width, (int)height);
    if (width > DG_GRID_MAX_DIM || height > DG_GRID_MAX_DIM)
        return dgi_fail(diag, DG_E_TOO_LARGE, "grid size %dx%d: each side must be <= %d",
                        (int)width, (int)height, DG_GRID_MAX_DIM);
    if ((int64_t)width * height > DG_GRID_MAX_CELLS)
        return dgi_fail(diag, DG_E_TOO_LARGE, "grid size %dx%d: more than %lld cells",
                        (int)width, (int)height, (long long)DG_GRID_MAX_CELLS);
    if (stride < width)
        return dgi_fail(diag, DG_E_INVALID, "grid stride %d is less than width %d", (int)stride,
                        (int)width);
    return DG_OK;
}

dg_status dgi_grid_validate(const dg_grid *grid, dg_diag *diag)
{
    if (!grid)
        return dgi_fail(diag, DG_E_NULL, "grid is NULL");
    return check_dims(grid->cells, grid->width, grid->height, grid->stride, diag);
}

dg_status dg_grid_init(dg_grid *grid, uint8_t *cells, int32_t width, int32_t height,
                       int32_t stride)
{
    if (!grid)
        return DG_E_NULL;
    if (stride == 0)
        stride = width;
    dg_status st = check_dims(cells, width, height, stride, NULL);
    if (st != DG_OK)
        return st;
    grid->cells = cells;
    grid->width = width;
    grid->height = height;
    grid->stride = stride;
    return DG_OK;
}

dg_status dg_grid_check(const dg_grid *grid)
{
    return dgi_grid_validate(grid, NULL);
}

uint8_t dg_grid_get(const dg_grid *grid, int32_t x, int32_t y)
{
    /* a broken stride (< width) would read outside the caller's buffer */
    if (!grid || !grid->cells || x < 0 || y < 0 || x >= grid->width || y >= grid->height ||
        grid->stride < grid->width)
        return DG_TILE_VOID;
    return DG_CELL(grid, x, y);
}

dg_status dg_grid_set(dg_grid *grid, int32_t x, int32_t y, uint8_t tile)
{
    dg_status st = dg_grid_check(grid);
    if (st != DG_OK)
        return st;
    if (x < 0 || y < 0 || x >= grid->width || y >= grid->height)
        return DG_E_INVALID;
    DG_CELL(grid, x, y) = tile;
    return DG_OK;
}

dg_status dg_grid_fill_rect(dg_grid *grid, dg_rect r, uint8_t tile)
{
    dg_status st = dg_grid_check(grid);
    if (st != DG_OK)
        return st;
    int64_t x0 = DG_MAX((int64_t)r.x, 0), y0 = DG_MAX((int64_t)r.y, 0);
    int64_t x1 = DG_MIN((int64_t)r.x + r.w, (int64_t)grid->width);
    int64_t y1 = DG_MIN((int64_t)r.y + r.h, (int64_t)grid->height);
    for (int64_t y = y0; y < y1; y++)
        if (x1 > x0)
            memset(&DG_CELL(grid, x0, y), tile, (size_t)(x1 - x0));
    return DG_OK;
}

dg_status dg_grid_fill(dg_grid *grid, uint8_t tile)
{
    dg_status st = dg_grid_check(grid);
    if (st != DG_OK)
        return st;
    dg_rect all = {0, 0, grid->width, grid->height};
    return dg_grid_fill_rect(grid, all, tile);
}

#define FNV_OFFSET 0xCBF29CE484222325ULL
#define FNV_PRIME 0x100000001B3ULL

uint64_t dg_grid_hash(const dg_grid *grid)
{
    if (dg_grid_check(grid) != DG_OK)
        return 0;
    uint64_t h = FNV_OFFSET;
    uint32_t dims[2] = {(uint32_t)grid->width, (uint32_t)grid->height};
    for (int i = 0; i < 2; i++)
        for (int b = 0; b < 4; b++)
            h = (h ^ ((dims[i] >> (8 * b)) & 0xFFu)) * FNV_PRIME;
    for (int32_t y = 0; y < grid->height; y++)
    {
        const uint8_t *row = &DG_CELL(grid, 0, y);
        for (int32_t x = 0; x < grid->width; x++)
            h = (h ^ row[x]) * FNV_PRIME;
    }
    return h;
}
