/** Short sha256 of the native kernels, ops, codegen and schedules under root. */
export function codeHash(root: string): string;
