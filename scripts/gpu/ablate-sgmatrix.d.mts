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
/** 'full' (the WGSL as given), then each cut, each SG32 variant, GUARDED and OPAQUE where they apply, for an sgmatrix kernel. */
export function ablations(wgsl: string): { name: string; doc: string; wgsl: string }[];
/** A manifest running one WGSL text at the lab's dispatch, for one shape. */
export function manifestFor(name: string, wgsl: string, dispatch: number[], types: Record<string, string>): Record<string, unknown>;
