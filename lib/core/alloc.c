/* Allocation through the caller's optional hooks. */
#include "core/core.h"

#include <stdlib.h>

void *dgi_alloc(const dg_allocator *a, size_t size)
{
    if (size == 0)
        size = 1;
    if (a && a->alloc)
        return a->alloc(a->user, size);
    return malloc(size);
}

void *dgi_calloc(const dg_allocator *a, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    void *p = dgi_alloc(a, count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void dgi_free(const dg_allocator *a, void *ptr, size_t size)
{
    if (!ptr)
        return;
    if (size == 0)
        size = 1;
    if (a && a->alloc)
    {
        if (a->free)
            a->free(a->user, ptr, size);
        return;
    }
    free(ptr);
}

dg_status dgi_grow(const dg_allocator *a, void **array, int32_t *capacity, int32_t need,
                   size_t elem)
{
    if (need <= *capacity)
        return DG_OK;
    int64_t cap = *capacity > 0 ? *capacity : 8;
    while (cap < need)
        cap *= 2;
    if (cap > INT32_MAX || (uint64_t)cap > SIZE_MAX / elem)
        return DG_E_NOMEM;
    void *fresh = dgi_alloc(a, (size_t)cap * elem);
    if (!fresh)
        return DG_E_NOMEM;
    if (*array)
    {
        memcpy(fresh, *array, (size_t)*capacity * elem);
        dgi_free(a, *array, (size_t)*capacity * elem);
    }
    *array = fresh;
    *capacity = (int32_t)cap;
    return DG_OK;
}
