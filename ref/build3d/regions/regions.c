/*
** regions.c -- Regions.Build, the dispatch by PartitionType (spec/build3d-regions.md
** REG-005), and the canonical bytes of a partition (REG-160). The top file of the
** folder: it calls the partitions (regions_watershed.c, regions_monotone.c,
** regions_layers.c), none of which calls back.
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/regions/regions.h"

/* REG-160 */
static void put_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

op_status op_regions_save(const op_regions *r, op_bytes *out, op_error *err) {
  if (!r) return op_fail(err, OP_E_ARGUMENT, "regions", "null", "no partition given");
  size_t len = 28 + 4 * (size_t)r->nspans;
  uint8_t *b = malloc(len);
  if (!b) return opc_nomem(err, "memory");
  memcpy(b, "OPREG001", 8);
  put_u32(b + 8, (uint32_t)r->partition);
  put_u32(b + 12, (uint32_t)r->border);
  put_u32(b + 16, r->nspans);
  put_u32(b + 20, r->nregions);
  put_u32(b + 24, r->max_dist);
  uint8_t *p = b + 28;
  for (uint32_t i = 0; i < r->nspans; i++, p += 2) { p[0] = (uint8_t)r->reg[i]; p[1] = (uint8_t)(r->reg[i] >> 8); }
  for (uint32_t i = 0; i < r->nspans; i++, p += 2) { p[0] = (uint8_t)r->dist[i]; p[1] = (uint8_t)(r->dist[i] >> 8); }
  out->data = b;
  out->len = len;
  return OP_OK;
}

/* REG-005 */
op_status op_regions_build(const op_chf *chf, op_partition p, int32_t border,
                           uint32_t min_region_area, uint32_t merge_region_area,
                           op_regions *out, op_error *err) {
  switch (p) {
  case OP_PARTITION_WATERSHED:
    return op_regions_watershed(chf, border, min_region_area, merge_region_area, out, err);
  case OP_PARTITION_MONOTONE:
    return op_regions_monotone(chf, border, min_region_area, merge_region_area, out, err);
  case OP_PARTITION_LAYERS:
    return op_regions_layers(chf, border, min_region_area, out, err);
  }
  return op_fail_i(err, OP_E_ARGUMENT, "partition", (long long)p, "unknown PartitionType");
}
