/*
** ops_settings.h -- the protocol's settings object (spec/build3d-spans.md SPAN-093):
** decoding a JSON settings object into op_settings, shared by the ops that take settings
** (settings.validate, level.generate in port/ops_build3d.c; spans.* in port/ops_spans.c).
*/
#ifndef OPS_SETTINGS_H
#define OPS_SETTINGS_H

#include "dispatch.h"
#include "onepath_build3d.h"

/* Decoded settings; vols and obst are owned (opd_settings_dec_free). */
typedef struct opd_settings_dec {
  op_settings s;
  op_convex_volume *vols;
  op_obstacle *obst;
} opd_settings_dec;

extern const char *const opd_partition_names[3]; /* SPAN-002 */
extern const char *const opd_shape_names[3];     /* SPAN-004 */

/* SPAN-093: decodes o (argument / out_of_range errors naming "settings.<member>"); does
** not validate. *d is zeroed first; free it with opd_settings_dec_free on every path. */
op_status opd_settings_decode(const opj *o, opd_settings_dec *d, op_error *err);
void opd_settings_dec_free(opd_settings_dec *d);
/* SPAN-093: a list of volumes at field pre ("settings.volumes"; "volumes" for the volumes
** argument of SPAN-190); absent, null and {} are the empty list. *out is malloc'd and owned
** by the caller, also on failure. */
op_status opd_volumes_decode(const opj *jv, const char *pre, op_convex_volume **out,
                             uint32_t *n, op_error *err);
/* SPAN-093: one obstacle (volume) object; errors name pre ("settings.obstacles[3]",
** "obstacle" for tilecache.add_obstacle RT-152) and its members ("<pre>.center",
** "<pre>.npoints"). No validation. */
op_status opd_obstacle_decode(const opj *o, const char *pre, op_obstacle *ob, op_error *err);
op_status opd_volume_decode(const opj *o, const char *pre, op_convex_volume *v, op_error *err);
/* The JSON forms of SPAN-093 (what the decoders read): an obstacle object and a volume
** object, members in the order SPAN-093 lists them. */
void opd_obstacle_write(opj_w *w, const op_obstacle *o);
void opd_volume_write(opj_w *w, const op_convex_volume *v);
/* SPAN-093: prefixes err->field with "settings." when st is an error; returns st. */
op_status opd_settings_prefix(op_status st, op_error *err);
/* SPAN-093: decode, then validate (SPAN-030; its errors prefixed "settings."). */
op_status opd_settings_decode_valid(const opj *o, opd_settings_dec *d, op_error *err);

#endif
