/*
** assembly.h -- internal header of the detail mesh and the tile assembler of the 3D build
** (stage 3, part 2): spec/build3d-polys.md sections 4 and 5 (POLY-200 .. POLY-217,
** POLY-250 .. POLY-257).
** Not part of the public API.
*/
#ifndef OP_ASSEMBLY_H
#define OP_ASSEMBLY_H

#include "onepath_build3d.h"
#include "onepath_stages.h"
#include "build3d/polys/polys.h"

/* Everything of sections 4 and 5 is declared in onepath_stages.h. */

#endif
