/*
** regions.c -- Regions.Build, the dispatch by PartitionType (spec/build3d-regions.md
** REG-005), and the canonical bytes of a partition (REG-160). The top file of the
** folder: it calls the partitions (regions_watershed.c, regions_monotone.c,
** regions_layers.c), none of which calls back.
*/
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/internal.h"
#include "build3d/regions/regions.h"

/* REG-160 */
op_status op_regions_save(const op_regions *r, op_bytes *out, op_error *err) {
  if (!r) return op_fail(err, OP_E_ARGUMENT, "regions", "null", "no partition given");
  size_t len = 28 + 4 * (size_t)r->nspans;
  opc_buf b = {NULL, 0, 0, 0};
  if (opc_buf_reserve(&b, len)) return opc_nomem(err, "memory"); /* exact size: no put reallocates */
  opc_put(&b, "OPREG001", 8);
  opc_put_u32(&b, (uint32_t)r->partition);
  opc_put_u32(&b, (uint32_t)r->border);
  opc_put_u32(&b, r->nspans);
  opc_put_u32(&b, r->nregions);
  opc_put_u32(&b, r->max_dist);
  for (uint32_t i = 0; i < r->nspans; i++) opc_put_u16(&b, r->reg[i]);
  for (uint32_t i = 0; i < r->nspans; i++) opc_put_u16(&b, r->dist[i]);
  assert(!b.oom && b.len == len);
  out->data = b.p;
  out->len = b.len;
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
