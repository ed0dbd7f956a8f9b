/** The WGSL and dispatch a `lab time -vv` log printed. */
export function extractWgsl(log: string): { wgsl: string; dispatch: [number, number, number] };
export interface Cut { readonly name: string; readonly doc: string; readonly edit: (wgsl: string) => string }
/** The cuts of a generated sgmatrix kernel, each throwing when the text it edits is missing. */
export const CUTS: readonly Cut[];
/** Variants correct at subgroup size 32 (no isActive branch; a constant subgroup index). */
export const SG32: readonly Cut[];
/** The K loop's unguarded global loads in an opaque always-true branch; null where the loop has none. */
export const GUARDED: { readonly name: string; readonly doc: string; readonly edit: (wgsl: string) => string | null };
/** The prefetch guard made opaque to the compiler; null where there is none. */
export const OPAQUE: typeof GUARDED;
/** Bytes of workgroup memory a kernel declares. */
export function workgroupBytes(wgsl: string): number;
/** The total workgroup memory (KiB) of each occupancy probe. */
export const SMEM_PROBES_KIB: readonly number[];
/** The kernel with an unused workgroup array bringing its workgroup memory to kib KiB; null where it already has that much or more. */
export function smemProbe(wgsl: string, kib: number): string | null;
/** The kernel with a barrier right after its guarded prefetch loads; null where it has none. */
export function fencedProbe(wgsl: string): string | null;
/** The occupancy probes, one per SMEM_PROBES_KIB, and the scheduling probe 'loadsfenced'. */
export const PROBES: readonly { readonly name: string; readonly doc: string; readonly edit: (wgsl: string) => string | null }[];
/** 'full' (the WGSL as given), then each cut, each SG32 variant, GUARDED and OPAQUE where they apply, for an sgmatrix kernel; with probes, 'full' and the occupancy probes. */
export function ablations(wgsl: string, options?: { probes?: boolean }): { name: string; doc: string; wgsl: string }[];
/** A manifest running one WGSL text at the lab's dispatch, for one shape. */
export function manifestFor(name: string, wgsl: string, dispatch: number[], types: Record<string, string>): Record<string, unknown>;
