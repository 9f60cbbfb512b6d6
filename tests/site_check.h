/* The promises of a generator run around reserved cells (dg_site), checked
 * over many seeds and masks; each generator's test calls site_check. */
#ifndef DG_SITE_CHECK_H
#define DG_SITE_CHECK_H

#include <dungeon.h>

typedef struct site_case {
    const char *generator;
    const char *prefabs;   /* prefab file, or NULL */
    int32_t width, height;
    const char *params;    /* extra recipe words ("count=4 base=cave"), or NULL */
    int connected;         /* 1: every open cell outside the reserved ones is reachable from the start */
} site_case;

enum {
    SITE_MASKS = 6 /* centre block, top edge block, corner L, scattered blobs, a ring, a thin bar */
};

/* Runs `seeds` seeds on every mask (and once with two anchors each) and checks
 * every promise; failures go through CHECKF with the generator, seed and mask.
 * Returns the number of runs that failed. */
int site_check(const site_case *c, int seeds);

/* Fills reserved (w*h) with mask `kind` (0..SITE_MASKS-1). */
void site_mask(uint8_t *reserved, int32_t w, int32_t h, int kind);

#endif
