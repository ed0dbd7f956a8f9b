/** The WGSL and dispatch a `lab time -vv` log printed. */
export function extractWgsl(log: string): { wgsl: string; dispatch: [number, number, number] };
export interface Cut { readonly name: string; readonly doc: string; readonly edit: (wgsl: string) => string }
/** The cuts of a generated sgmatrix kernel, each throwing when the text it edits is missing. */
export const CUTS: readonly Cut[];
/** Variants correct at subgroup size 32 (no isActive branch; a constant subgroup index). */
export const SG32: readonly Cut[];
/** 'full' (the WGSL as given), then each cut and each SG32 variant for an sgmatrix kernel. */
export function ablations(wgsl: string): { name: string; doc: string; wgsl: string }[];
/** A manifest running one WGSL text at the lab's dispatch, for one shape. */
export function manifestFor(name: string, wgsl: string, dispatch: number[], types: Record<string, string>): Record<string, unknown>;
