/* Export entry points: options, validation of everything before the first
 * byte, the JSON and Tiled writers (json.c, tiled.c), and the
 * swatch tileset the Tiled maps reference. See docs/export.md. */
#include "export/export.h"

void dg_export_defaults(dg_export_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->format = DG_EXPORT_JSON;
    options->tile_width = 16;
    options->tile_height = 16;
    options->tileset_image = "dungeon-tiles.png";
}

static int name_terminated(const char *name)
{
    return memchr(name, '\0', DG_NAME_MAX) != NULL;
}

/* Checks what the writers read, so that they can never fail half-way. */
static dg_status check_result(const dg_result *r, dg_diag *diag)
{
    if (r->room_count < 0 || r->corridor_count < 0 || r->door_count < 0 || r->marker_count < 0 ||
        r->label_count < 0 || r->corridor_edge_count < 0)
        return dgi_fail(diag, DG_E_INVALID, "result has a negative count");
    if ((r->room_count && !r->rooms) || (r->corridor_count && !r->corridors) ||
        (r->door_count && !r->doors) || (r->marker_count && !r->markers) ||
        (r->label_count && !r->labels) || (r->corridor_edge_count && !r->corridor_edges))
        return dgi_fail(diag, DG_E_NULL, "result has a count but no array");
    for (int32_t i = 0; i < r->marker_count; i++)
        if (!name_terminated(r->markers[i].name) || !name_terminated(r->markers[i].type))
            return dgi_fail(diag, DG_E_INVALID, "marker %d has no NUL-terminated %s", (int)i,
                            name_terminated(r->markers[i].name) ? "type" : "name");
    for (int32_t i = 0; dgi_room_label(r, 0) && i < r->room_count; i++)
        if (!name_terminated(r->labels[i].role) || !name_terminated(r->labels[i].name))
            return dgi_fail(diag, DG_E_INVALID, "room %d's label has no NUL-terminated %s", (int)i,
                            name_terminated(r->labels[i].role) ? "name" : "role");
    return DG_OK;
}

static dg_status check_export(const dg_grid *grid, const dg_result *result,
                              const dg_export_options *o, dg_diag *diag)
{
    dg_status st = dgi_grid_validate(grid, diag);
    if (st != DG_OK)
        return st;
    if (o->format < DG_EXPORT_JSON || o->format > DG_EXPORT_TMX)
        return dgi_fail(diag, DG_E_INVALID, "unknown export format %d", (int)o->format);
    for (int i = 0; i < DG_SPARE_SLOTS - 1; i++) /* spare[0] became terrain */
        if (o->spare[i])
            return dgi_fail(diag, DG_E_INVALID, "export options spare[%d] is %d: spare slots must be 0",
                            i + 1, (int)o->spare[i]);
    if (o->tile_width < 1 || o->tile_width > 256 || o->tile_height < 1 || o->tile_height > 256)
        return dgi_fail(diag, DG_E_INVALID, "tile size %dx%d is outside 1..256",
                        (int)o->tile_width, (int)o->tile_height);
    if (o->format != DG_EXPORT_JSON && (!o->tileset_image || !o->tileset_image[0]))
        return dgi_fail(diag, DG_E_INVALID, "a Tiled map needs a tileset image path");
    if (o->terrain != 0 && o->terrain != 1)
        return dgi_fail(diag, DG_E_INVALID, "terrain %d is not 0 or 1", (int)o->terrain);
    if (o->terrain && o->format != DG_EXPORT_JSON && o->tileset_image &&
        strlen(o->tileset_image) > DGI_ART_PATH_MAX)
        return dgi_fail(diag, DG_E_INVALID, "with terrain the tileset image path is at most %d bytes",
                        DGI_ART_PATH_MAX);
    if (o->terrain && o->tile_width != o->tile_height)
        return dgi_fail(diag, DG_E_INVALID, "terrain needs square tiles, not %dx%d",
                        (int)o->tile_width, (int)o->tile_height);
    if (o->recipe)
    {
        size_t len;
        st = dg_recipe_print(o->recipe, NULL, 0, &len);
        if (st != DG_OK)
            return dgi_fail(diag, st, "the recipe to embed is not valid");
    }
    return result ? check_result(result, diag) : DG_OK;
}

typedef struct export_job {
    const dg_grid *grid;
    const dg_result *result;
    const dg_export_options *options;
} export_job;

static void emit_export(const void *ctx, dgi_out *o)
{
    const export_job *job = ctx;
    if (job->options->format == DG_EXPORT_JSON)
        dgi_export_json(job->grid, job->result, job->options, o);
    else
        dgi_export_tiled(job->grid, job->result, job->options, o);
}

static dg_status prepare(const dg_grid *grid, const dg_result *result,
                         const dg_export_options *options, dg_export_options *defaults,
                         export_job *job, dg_diag *diag)
{
    if (!options)
    {
        dg_export_defaults(defaults);
        options = defaults;
    }
    dg_status st = check_export(grid, result, options, diag);
    job->grid = grid;
    job->result = result;
    job->options = options;
    return st;
}

dg_status dg_export(const dg_grid *grid, const dg_result *result, const dg_export_options *options,
                    dg_write_fn write, void *user, dg_diag *diag)
{
    if (!write)
        return dgi_fail(diag, DG_E_NULL, "write callback is NULL");
    dg_export_options defaults;
    export_job job;
    dg_status st = prepare(grid, result, options, &defaults, &job, diag);
    if (st != DG_OK)
        return st;
    dgi_out o;
    dgi_out_init(&o, write, user);
    emit_export(&job, &o);
    dgi_out_flush(&o);
    dgi_diag_ok(diag);
    return DG_OK;
}

dg_status dg_export_buffer(const dg_grid *grid, const dg_result *result,
                           const dg_export_options *options, char *out, size_t out_size,
                           size_t *written, dg_diag *diag)
{
    dg_export_options defaults;
    export_job job;
    dg_status st = prepare(grid, result, options, &defaults, &job, diag);
    if (st != DG_OK)
        return st;
    st = dgi_out_to_buffer(emit_export, &job, out, out_size, written);
    if (st != DG_OK)
        return dgi_fail(diag, st, "the buffer is too small for the export");
    dgi_diag_ok(diag);
    return DG_OK;
}

typedef struct floors_job {
    const dg_grid *grids;
    const dg_result *results;
    int32_t count;
    const dg_export_options *options;
} floors_job;

static void emit_floors(const void *ctx, dgi_out *o)
{
    const floors_job *job = ctx;
    dgi_export_tiled_floors(job->grids, job->results, job->count, job->options, o);
}

/* Every floor checked as dg_export checks one map, and all of one size. */
static dg_status check_floors(const floors_job *job, dg_diag *diag)
{
    if (!job->grids)
        return dgi_fail(diag, DG_E_NULL, "grids is NULL");
    if (job->count < 1 || job->count > DG_FLOORS_MAX)
        return dgi_fail(diag, DG_E_INVALID, "%d floors: 1..%d are allowed", (int)job->count,
                        DG_FLOORS_MAX);
    if (job->options->format != DG_EXPORT_TMJ && job->options->format != DG_EXPORT_TMX)
        return dgi_fail(diag, DG_E_INVALID, "floors go into a Tiled map (tmj or tmx), not format %d",
                        (int)job->options->format);
    for (int32_t k = 0; k < job->count; k++)
    {
        dg_status st = check_export(&job->grids[k], job->results ? &job->results[k] : NULL,
                                    job->options, diag);
        if (st != DG_OK)
            return st;
        if (job->grids[k].width != job->grids[0].width || job->grids[k].height != job->grids[0].height)
            return dgi_fail(diag, DG_E_INVALID, "floor %d is %dx%d, floor 0 is %dx%d", (int)k,
                            (int)job->grids[k].width, (int)job->grids[k].height,
                            (int)job->grids[0].width, (int)job->grids[0].height);
    }
    return DG_OK;
}

dg_status dg_export_floors(const dg_grid *grids, const dg_result *results, int32_t count,
                           const dg_export_options *options, dg_write_fn write, void *user,
                           dg_diag *diag)
{
    if (!write)
        return dgi_fail(diag, DG_E_NULL, "write callback is NULL");
    dg_export_options defaults;
    if (!options)
    {
        dg_export_defaults(&defaults);
        defaults.format = DG_EXPORT_TMX;
        options = &defaults;
    }
    floors_job job = {grids, results, count, options};
    dg_status st = check_floors(&job, diag);
    if (st != DG_OK)
        return st;
    dgi_out o;
    dgi_out_init(&o, write, user);
    emit_floors(&job, &o);
    dgi_out_flush(&o);
    dgi_diag_ok(diag);
    return DG_OK;
}

dg_status dg_export_tileset_rgba(const uint32_t *palette, int32_t tile_width, int32_t tile_height,
                                 uint8_t *out, size_t out_size)
{
    if (!out)
        return DG_E_NULL;
    if (tile_width < 1 || tile_width > 256 || tile_height < 1 || tile_height > 256)
        return DG_E_INVALID;
    size_t row = (size_t)DG_TILESET_COLUMNS * (size_t)tile_width * 4u;
    if (out_size < row * (size_t)DG_TILESET_COLUMNS * (size_t)tile_height)
        return DG_E_BUFFER;
    for (int32_t index = 0; index < DG_TILESET_COLUMNS * DG_TILESET_COLUMNS; index++)
    {
        /* index v-1 shows tile v, so a Tiled GID equals the tile value */
        uint32_t c = index == 255 ? 0u : palette ? palette[index + 1] : dg_tile_color((uint8_t)(index + 1));
        uint8_t rgba[4] = {(uint8_t)(c >> 24), (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c};
        size_t x0 = (size_t)(index % DG_TILESET_COLUMNS) * (size_t)tile_width;
        size_t y0 = (size_t)(index / DG_TILESET_COLUMNS) * (size_t)tile_height;
        for (size_t y = y0; y < y0 + (size_t)tile_height; y++)
            for (size_t x = x0; x < x0 + (size_t)tile_width; x++)
                memcpy(out + y * row + x * 4u, rgba, 4);
    }
    return DG_OK;
}
