// The lab's own kernels written against the manifest format (examples/kernels/): one
// elementwise, one row reduction, one two-pass through a scratch buffer, and one written the way
// an engine ships it (read_write sources, const-expression bindings, variants by adapter). The page offers them
// as starting points; the tests run each through the whole path.
import addManifest from '../../../examples/kernels/add/manifest.json?raw';
import addWgsl from '../../../examples/kernels/add/add.wgsl?raw';
import rmsManifest from '../../../examples/kernels/rms-norm/manifest.json?raw';
import rmsWgsl from '../../../examples/kernels/rms-norm/rms_norm.wgsl?raw';
import splitManifest from '../../../examples/kernels/rms-norm-split/manifest.json?raw';
import splitScaleWgsl from '../../../examples/kernels/rms-norm-split/scale.wgsl?raw';
import splitSumsqWgsl from '../../../examples/kernels/rms-norm-split/sumsq.wgsl?raw';
import ggmlManifest from '../../../examples/kernels/ggml-style-add/manifest.json?raw';
import ggmlWgsl from '../../../examples/kernels/ggml-style-add/binary.wgsl?raw';
import ggmlF16Wgsl from '../../../examples/kernels/ggml-style-add/binary_f16.wgsl?raw';

export interface ExampleKernel {
  /** The folder under examples/kernels/. */
  readonly dir: string;
  readonly manifest: string;
  /** WGSL by the file name the manifest uses. */
  readonly files: Readonly<Record<string, string>>;
}

const examples: ExampleKernel[] = [
  { dir: 'add', manifest: addManifest, files: { 'add.wgsl': addWgsl } },
  { dir: 'rms-norm', manifest: rmsManifest, files: { 'rms_norm.wgsl': rmsWgsl } },
  { dir: 'rms-norm-split', manifest: splitManifest, files: { 'sumsq.wgsl': splitSumsqWgsl, 'scale.wgsl': splitScaleWgsl } },
  { dir: 'ggml-style-add', manifest: ggmlManifest, files: { 'binary.wgsl': ggmlWgsl, 'binary_f16.wgsl': ggmlF16Wgsl } },
];

export const EXAMPLE_KERNELS: readonly ExampleKernel[] = Object.freeze(examples);
