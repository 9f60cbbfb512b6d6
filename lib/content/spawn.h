/* Spawn tables (spawn.c) as dg_populate (populate.c) reads them. Private to
 * lib/content. */
#ifndef DG_CONTENT_SPAWN_H
#define DG_CONTENT_SPAWN_H

#include "analysis/analysis.h"

/* What an entry's words say, found once when the table is made (facts). */
enum {
    DGI_SPAWN_BOSS = 2,  /* its rooms list "boss" */
    DGI_SPAWN_ITEM = 4,  /* kind "item" (DG_MARKER_ITEM) */
    DGI_SPAWN_ANY = 8,   /* fits every room: no room words, or "any" */
    DGI_SPAWN_ACTOR = 16 /* kind "monster" (DG_MARKER_ACTOR) */
};

struct dg_spawn_table {
    dg_allocator allocator;
    dg_spawn_entry *entries; /* count entries, in file order */
    int32_t count;
    uint64_t hash;           /* dg_spawn_table_hash, computed once */
    int32_t entries_cap_;    /* entries allocated (free gets their size) */
    uint8_t *facts;          /* per entry, DGI_SPAWN_* (count bytes after the struct) */
};

/* The DG_MARKER_* an entry's kind word gives: ACTOR for "monster", ITEM for
 * "item", SPAWN for any other word. */
int32_t dgi_spawn_marker_kind(const dg_spawn_entry *e);
/* 1 if the entry may appear in a room with this role ("" for none) and
 * room kind name: it has no room words, or one of them is "any", the role or
 * the kind name. */
int dgi_spawn_fits_room(const dg_spawn_entry *e, const char *role, const char *room_kind);
/* 1 if one of the entry's room words is exactly `word`. */
int dgi_spawn_lists(const dg_spawn_entry *e, const char *word);
/* 1 if the entry appears at depth. */
int dgi_spawn_at_depth(const dg_spawn_entry *e, int32_t depth);

#endif
