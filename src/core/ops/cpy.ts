// CPY — ggml_cpy(a, b): a's elements written into b (the result is a view of b), in ggml
// order on both sides: dst element k of b's own shape = src element k of a's shape; ggml asserts
// only nelements(a) == nelements(b). Here src is any f32 view (permuted, transposed, strided
// rows, an offset slice); dst is packed f32, a packed f32 view at an offset inside a larger
// buffer (llama's write of K into its cache), or packed f16. The copy kit (copy-kit.ts) gives the
// rest: oracle, native kernel, generated path, contract.
import { contiguous, nelements, view } from '../tensor';
import { defineCopyOp, intoPacked, SOURCE_VIEWS } from './copy-kit';

// The copy helpers other ops reuse (the cross-entropy ops' dims) keep their old home.
export { copyDims } from './copy-kit';

export const CPY = defineCopyOp({
  name: 'CPY',
  summary: "dst = src's elements in ggml order, any f32 view into a packed f32 or f16 tensor (ggml_cpy)",
  shapeSyntax: 'ne0xne1[xne2xne3] of src',
  layouts: [
    intoPacked('contiguous', 'packed f32 src → packed f32 dst, same shape'),
    intoPacked('src-permuted', 'src is permute(0,2,1,3) of a packed tensor (the head shuffle before attention)'),
    intoPacked('src-transposed', 'src is the transpose of a packed tensor (rows not contiguous)'),
    intoPacked('src-rows-strided', 'src rows sit in a wider packed tensor (odd row stride, one element in)'),
    {
      name: 'dst-view',
      doc: 'dst is a 1-D view at an offset inside a larger packed buffer (writing K into a KV cache)',
      build: (ne) => {
        // A cache of n + 2·ne0 + 5 elements; the copy lands one row plus five elements in.
        const n = nelements(contiguous('f32', ne));
        const cache = contiguous('f32', [n + 2 * ne[0] + 5]);
        return { src: contiguous('f32', ne), dst: view(cache, [n], [n * 4, n * 4, n * 4], (ne[0] + 5) * 4, 'view-1d') };
      },
    },
    { name: 'to-f16', doc: 'packed f32 src → packed f16 dst (round to nearest even)', build: (ne) => ({ src: contiguous('f32', ne), dst: contiguous('f16', ne) }) },
    { name: 'permuted-to-f16', doc: 'src is permute(0,2,1,3) of a packed f32 tensor → packed f16 dst', build: (ne) => ({ src: SOURCE_VIEWS['src-permuted'](ne), dst: contiguous('f16', ne) }) },
  ],
  matrix: [
    { dims: [4096, 9], layout: 'contiguous' },
    { dims: [4093, 7], layout: 'contiguous' },
    { dims: [128, 33, 8], layout: 'src-permuted' },
    { dims: [250, 129], layout: 'src-transposed' },
    { dims: [1000, 33], layout: 'src-rows-strided' },
    { dims: [128, 37, 4], layout: 'dst-view' },
    { dims: [4093, 9], layout: 'to-f16' },
    { dims: [64, 17, 8], layout: 'permuted-to-f16' },
  ],
});
