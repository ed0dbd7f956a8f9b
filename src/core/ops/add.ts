// ADD — ggml_add(a, b): dst = a + b with b repeated over a (ggml_can_repeat(b, a)); dst has
// a's shape; ggml_add_inplace makes dst a view of a. Like ggml's CPU kernel, dst and src0 rows
// must be contiguous; src1 may have any strides.
import { rowsContiguous } from '../tensor';
import { defineBinary } from './kit';

export const ADD = defineBinary({
  name: 'ADD',
  summary: 'dst = src0 + src1, src1 broadcast over src0 (ggml_add, ggml_add_inplace)',
  matrix: [
    { dims: [4096, 128], layout: 'contiguous' },
    { dims: [4093, 37], layout: 'contiguous' },
    { dims: [2048, 128], layout: 'inplace' },
    { dims: [4096, 64], layout: 'broadcast-row' },
    { dims: [1000, 33, 3], layout: 'broadcast-col' },
    { dims: [4096, 64], layout: 'src0-rows-strided' },
    { dims: [512, 64, 8], layout: 'src1-permuted' },
    { dims: [256, 256], layout: 'src1-transposed' },
  ],
  // epsFloor |a| + |b|: where a + b cancels, the rounding stays the size of the terms.
  element: (a, b) => ({ ref: a + b, epsFloor: Math.abs(a) + Math.abs(b) }),
  expr: 'a + b',
  require: (c) => (rowsContiguous(c.srcs[1]) ? null : { code: 'src1-rows-not-contiguous', reason: `src1 rows are not contiguous (nb0 = ${c.srcs[1].nb[0]} B): the generated kernel loads rows as vectors` }),
});
