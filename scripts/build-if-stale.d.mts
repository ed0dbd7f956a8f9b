/** Runs `vite build` with `configFile` when `output` is older than the newest of `inputs` (paths under root). */
export function buildIfStale(root: string, configFile: string, output: string, inputs: string[]): Promise<boolean>;
