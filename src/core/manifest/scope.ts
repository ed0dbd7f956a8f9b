// The names a manifest's expressions read, taken from a case (ggml's names: ne0/nb0 for dst,
// ne00/nb00 for src0, ne10/nb10 for src1…), the op's params and features, and the adapter.
import type { AdapterDescriptor } from '../adapter';
import { GUARD_BYTES } from '../hostdata';
import type { OpCase, OpDef } from '../ops/types';
import { nelements, nrows, type TensorDesc, typeSizeBytes } from '../tensor';

export type ScopeAdapter = Pick<AdapterDescriptor, 'limits' | 'features' | 'subgroupMinSize' | 'subgroupMaxSize'>;

/** Byte offset of a tensor's element [0,0,0,0] in the buffer the lab binds (guard band included). */
function boundOffsetBytes(t: TensorDesc): number {
  return GUARD_BYTES + t.offsetBytes;
}

function tensorNames(into: Map<string, number>, prefix: string, off: string, t: TensorDesc): void {
  for (let d = 0; d < 4; d++) {
    into.set(`ne${prefix}${d}`, t.ne[d]);
    into.set(`nb${prefix}${d}`, t.nb[d]);
  }
  into.set(`boff${off}`, boundOffsetBytes(t));
  into.set(`off${off}`, boundOffsetBytes(t) / typeSizeBytes[t.type]);
}

/**
 * Every name of the case: dst's ne0..ne3, nb0..nb3 (bytes), offd (elements) and boffd (bytes);
 * src i's ne{i}0.., nb{i}0.., off{i}, boff{i}; n and nrows of dst; inplace (1 or 0); the op's
 * params (eps…) and features (M, N, K…); the adapter's max_workgroups_per_dim and subgroup sizes.
 */
export function caseScope(op: OpDef, c: OpCase, adapter: ScopeAdapter): Map<string, number> {
  const s = new Map<string, number>();
  tensorNames(s, '', 'd', c.dst);
  c.srcs.forEach((t, i) => tensorNames(s, String(i), String(i), t));
  s.set('n', nelements(c.dst));
  s.set('nrows', nrows(c.dst));
  s.set('inplace', c.inplace ? 1 : 0);
  for (const [k, v] of Object.entries(c.params)) s.set(k, v);
  for (const [k, v] of Object.entries(op.features(c))) if (!s.has(k)) s.set(k, v);
  for (const [name, value] of Object.entries(adapterNames(adapter))) s.set(name, value);
  return s;
}

/**
 * The adapter's limits and facts, by the names expressions use (docs/kernel-manifest.md): a
 * manifest sizes its workgroup to the adapter or picks a variant by a feature with them.
 */
export function adapterNames(adapter: ScopeAdapter): Record<string, number> {
  const { limits } = adapter;
  const has = (f: string) => (adapter.features.includes(f) ? 1 : 0);
  return {
    max_workgroups_per_dim: limits.maxComputeWorkgroupsPerDimension,
    max_invocations_per_workgroup: limits.maxComputeInvocationsPerWorkgroup,
    max_workgroup_size_x: limits.maxComputeWorkgroupSizeX,
    max_workgroup_size_y: limits.maxComputeWorkgroupSizeY,
    max_workgroup_storage_bytes: limits.maxComputeWorkgroupStorageSize,
    max_storage_binding_bytes: limits.maxStorageBufferBindingSize,
    max_storage_buffers: limits.maxStorageBuffersPerShaderStage,
    subgroup_min_size: adapter.subgroupMinSize,
    subgroup_max_size: adapter.subgroupMaxSize,
    has_f16: has('shader-f16'),
    has_subgroups: has('subgroups'),
    has_subgroup_matrix: has('chromium-experimental-subgroup-matrix'),
    has_timestamps: has('timestamp-query'),
  };
}
