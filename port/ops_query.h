/*
** ops_query.h -- argument readers and answer writers shared by the query ops (ops_query.c),
** the surface query ops (ops_query_surface.c) and the corridor ops (ops_corridor.c):
** spec/query.md section 9, QRY-020..024.
*/
#ifndef OPS_QUERY_H
#define OPS_QUERY_H

#include "onepath_query.h"
#include "dispatch.h"
#include "opj.h"

op_status opd_q_get_mesh(opd_session *s, const opj *args, op_mesh **m, op_error *err);
op_status opd_q_get_opt_u32(const opj *args, const char *key, uint32_t def, uint32_t *out,
                            op_error *err);
op_status opd_q_get_point(const opj *args, const char *key, double out[3], op_error *err);
op_status opd_q_get_filter(const opj *args, op_query_filter *f, op_error *err);
op_status opd_q_get_ref(const opj *args, const char *key, op_ref *out, op_error *err);
void opd_q_w_point(opj_w *res, const char *key, const double p[3]);
void opd_q_w_poly(opj_w *res, const op_query_poly *p);
void opd_q_w_polys(opj_w *res, const char *key, const op_query_poly *p, uint32_t n);

#endif
