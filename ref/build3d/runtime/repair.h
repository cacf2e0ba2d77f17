/*
** repair.h -- the repair of a layer after spans were removed (internal). Normative text:
** spec/build3d-runtime.md section 8, RT-100 .. RT-106.
**
** CONTRACT between ref/build3d/runtime/repair.c (implements) and ref/build3d/runtime/tilecache.c (calls). The result is a
** contour set that gives, through opl_layer_tile, the same tile bytes as the
** from-scratch opl_layer_contours on the same areas (RT-106).
*/
#ifndef OP_REPAIR_H
#define OP_REPAIR_H

#include "build3d/contours/contours.h"
#include "build3d/regions/regions.h"

/* Why a repair was not done (for statistics; any non-zero value means "build from
** scratch"). */
typedef enum oprp_result {
  OPRP_DONE = 0,
  OPRP_NOT_REMOVAL = 1, /* (a): an area changed to something other than 0 */
  OPRP_SMALL = 2,       /* (b) */
  OPRP_SPLIT = 3,       /* (c): a region may be in pieces, or the budget ran out */
  OPRP_RENUMBER = 4,    /* (d) */
  OPRP_NOTHING = 5      /* no span removed: the caller should use the first build */
} oprp_result;

/* RT-101 .. RT-105 for one layer view.
**   view            the layer view with its FIRST-BUILD areas (view->areas = A0);
**   g               view's span graph (SPAN-146);
**   rg0, cs0        the first build's regions and contours of the view (RT-100);
**   areas           the areas in force A (view->nspans entries);
**   volume_selects  1 when a live run-time volume selects a span of the layer whose area
**                   is not 0 after the obstacles (precondition (a), second half);
**   p               the contour parameters of the build (REG-200);
**   min_region_area MinRegionArea.
** On OP_OK, *result says whether the repair was done; when it was (OPRP_DONE) *out
** holds the layer's contour set for A (owned by the caller; op_contour_set_free), else
** *out is zeroed. Errors are only OP_E_NOMEM / OP_E_LIMIT. *nremoved (may be NULL)
** receives the number of removed spans. */
op_status oprp_layer(const op_chf *view, const op_span_graph *g, const op_regions *rg0,
                     const op_contour_set *cs0, const uint8_t *areas, int volume_selects,
                     const op_contour_params *p, uint32_t min_region_area, oprp_result *result,
                     op_contour_set *out, uint32_t *nremoved, op_error *err);

/* The same repair for a caller that only turns the result into a tile (opl_layer_tile
** reads the contours, their vertices and the grid fields): the same decisions, result and
** *nremoved, and the same *out except that its edge map (edge_loop, REG-214) is not made
** (NULL). Saves the 4 * nspans pass that renumbers the edge map. */
op_status oprp_layer_tile(const op_chf *view, const op_span_graph *g, const op_regions *rg0,
                          const op_contour_set *cs0, const uint8_t *areas, int volume_selects,
                          const op_contour_params *p, uint32_t min_region_area,
                          oprp_result *result, op_contour_set *out, uint32_t *nremoved,
                          op_error *err);

/* oprp_layer (edge_map 1) or oprp_layer_tile (0) with every allocation of the repair's own
** working arrays and result counted on al (CONF-059; NULL: none), so that a failing one is
** out_of_memory `cache` and changes nothing. */
op_status oprp_layer_counted(const op_chf *view, const op_span_graph *g, const op_regions *rg0,
                             const op_contour_set *cs0, const uint8_t *areas, int volume_selects,
                             const op_contour_params *p, uint32_t min_region_area,
                             oprp_result *result, op_contour_set *out, uint32_t *nremoved,
                             int edge_map, op_alloc_count *al, op_error *err);

#endif
