// CONT — ggml_cont(a): a new packed tensor of a's shape and type holding a's elements in ggml
// order (ggml_compute_forward_cont is ggml_compute_forward_dup, as for CPY). The op that makes a
// permuted or transposed view usable by kernels that need packed rows. A copy-kit op (copy-kit.ts)
// like CPY: the oracle, the native kernel and the generated path are the kit's; only the layouts
// differ (dst is always new, packed, f32 here).
import { contiguous, view } from '../tensor';
import { defineCopyOp, intoPacked, permutedView } from './copy-kit';

export const CONT = defineCopyOp({
  name: 'CONT',
  summary: "dst = a packed copy of a's elements in ggml order, a any f32 view (ggml_cont)",
  shapeSyntax: 'ne0xne1[xne2xne3] of a (and of dst)',
  layouts: [
    intoPacked('src-permuted', 'a is permute(0,2,1,3) of a packed tensor (heads back to tokens after attention)'),
    intoPacked('src-transposed', 'a is the transpose of a packed tensor (rows not contiguous)'),
    intoPacked('src-rows-strided', 'a is a view whose rows sit in a wider packed tensor'),
    intoPacked('src-slice', 'a is a 4-D view at an offset of a larger tensor (ne1 of a parent with 2 more rows, planes apart)', (ne) => {
      const parent = contiguous('f32', [ne[0], ne[1] + 2, ne[2], ne[3]]);
      return view(parent, ne, [parent.nb[1], parent.nb[2], parent.nb[3]], parent.nb[1], 'slice');
    }),
    intoPacked('contiguous', 'a is already packed (ggml still copies)'),
    // The two the training graph's attention backward sends (ggml_cont of permuted K/V gradients).
    intoPacked('src-permuted-120', 'a is permute(1,2,0,3) of a packed [ne1, ne2, ne0] (dims 1, 2, 0 innermost first): the attention backward', (ne) => permutedView(ne, [1, 2, 0])),
    intoPacked('src-permuted-201', 'a is permute(2,0,1,3) of a packed [ne2, ne0, ne1] (dims 2, 0, 1 innermost first): the attention backward', (ne) => permutedView(ne, [2, 0, 1])),
  ],
  matrix: [
    { dims: [128, 33, 8], layout: 'src-permuted' },
    { dims: [64, 7, 32, 2], layout: 'src-permuted' },
    { dims: [250, 129], layout: 'src-transposed' },
    { dims: [4093, 9], layout: 'src-rows-strided' },
    { dims: [96, 31, 5], layout: 'src-slice' },
    { dims: [4096, 9], layout: 'contiguous' },
    { dims: [128, 8, 4], layout: 'src-permuted-120' },
    { dims: [8, 4, 128], layout: 'src-permuted-201' },
  ],
});
