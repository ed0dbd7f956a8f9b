// The graph run's request and result (what `census --run` and the Census view ask the engine for)
// and its text report. Pure.
import { textTable } from '../report/format';
import type { ParamCheck } from './graph-step';
import type { ModelConfig } from './model-config';

export interface GraphRunRequest {
  /** A preset name (tiny, micro…) or a whole config (a GGUF header's). */
  readonly preset?: string;
  readonly config?: ModelConfig;
  readonly steps: number;
  readonly seed: number;
  /** auto: the registry's pick per node (generated where the state and contract allow); native: every node native. */
  readonly variant: 'auto' | 'native';
  /** Step 1 checked against the CPU f64 evaluation (loss and every parameter). */
  readonly check: boolean;
  /** AdamW hyperparameters (ggml-opt's defaults where absent). */
  readonly adamw?: Readonly<Record<string, number>>;
  /** Refuse before allocating when the run needs more (default GRAPH_RUN_DEFAULT_BUDGET_BYTES). */
  readonly memoryBudgetBytes?: number;
}

/** What a run may allocate when no budget is given: WebGPU does not report an adapter's memory. */
export const GRAPH_RUN_DEFAULT_BUDGET_BYTES = 4 * 2 ** 30;

export interface OpDispatches {
  /** ggml_op_desc. */
  readonly op: string;
  readonly nodes: number;
  readonly generated: number;
  readonly native: number;
  /** Native dispatches that 'auto' fell back to, by reason (a registry state is not a fallback). */
  readonly fallbacks: readonly { readonly code: string; readonly reason: string; readonly count: number }[];
  /** Sum over the op's nodes of each node's timestamped pass, median over the steps; null without timestamps. */
  readonly stepNs: number | null;
  /** The registry's state for the op on this adapter's class. */
  readonly state: string;
}

export interface GraphRunResult {
  readonly kind: 'graph-run';
  readonly config: ModelConfig;
  readonly adapterName: string;
  readonly variant: 'auto' | 'native';
  readonly computeNodes: number;
  readonly allocatedBytes: number;
  readonly losses: readonly number[];
  /** Per step, the sum of the nodes' passes (ns); empty without timestamps. */
  readonly stepNs: readonly number[];
  /** One empty timestamped pass (median): what each node's time carries besides its kernel. */
  readonly perNodeOverheadNs: number | null;
  readonly perOp: readonly OpDispatches[];
  readonly check: GraphCheck | null;
}

export interface GraphCheck {
  readonly cpuLoss: number;
  readonly gpuLoss: number;
  readonly lossBound: number;
  readonly lossOk: boolean;
  readonly params: readonly ParamCheck[];
  readonly paramsOk: boolean;
  readonly ok: boolean;
}

/** Whether the loss fell: the last step's is below the first's. */
export function lossFell(losses: readonly number[]): boolean {
  return losses.length >= 2 && losses[losses.length - 1] < losses[0];
}

const us = (ns: number | null) => (ns === null ? '—' : (ns / 1000).toFixed(1));
const mib = (b: number) => (b / 2 ** 20).toFixed(b < 2 ** 20 ? 3 : 1);

export function formatGraphRun(r: GraphRunResult): string {
  const c = r.config;
  const lines = [
    `graph run: ${c.name} (vocab ${c.nVocab}, embd ${c.nEmbd}, ${c.nLayer} layers, context ${c.nCtx}, batch ${c.nBatch}) on ${r.adapterName}: ${r.computeNodes} computing nodes per step, ${mib(r.allocatedBytes)} MiB allocated once, variant ${r.variant}`,
  ];
  const rows = [...r.perOp].sort((a, b) => (b.stepNs ?? 0) - (a.stepNs ?? 0) || a.op.localeCompare(b.op));
  const fb = (o: OpDispatches) => o.fallbacks.map((f) => `${f.count}× ${f.code}`).join(', ');
  lines.push(
    textTable(
      ['op', 'nodes', 'generated', 'native', 'fallback', 'state', 'µs/step'],
      rows.map((o) => [o.op, String(o.nodes), String(o.generated), String(o.native), fb(o) || '0', o.state, us(o.stepNs)]),
    ),
  );
  if (r.perNodeOverheadNs !== null) {
    const total = r.stepNs.length ? [...r.stepNs].sort((a, b) => a - b)[Math.floor(r.stepNs.length / 2)] : null;
    lines.push(`time: each node in its own timestamped compute pass; an empty pass measures ${us(r.perNodeOverheadNs)} µs, included in every node's time; step (median over ${r.stepNs.length}): ${us(total)} µs`);
  } else lines.push('time: no timestamp-query on this device: per-op times are not measured');
  lines.push(`loss per step: ${r.losses.map((l) => l.toFixed(4)).join(' ')}${r.losses.length >= 2 ? (lossFell(r.losses) ? ' (falls)' : ' (does not fall)') : ''}`);
  if (r.check) {
    const k = r.check;
    lines.push(`check, step 1 against the CPU f64 evaluation: loss gpu ${k.gpuLoss} cpu ${k.cpuLoss} |Δ| ${Math.abs(k.gpuLoss - k.cpuLoss).toExponential(2)} ≤ ${k.lossBound.toExponential(2)}: ${k.lossOk ? 'ok' : 'FAILED'}`);
    const bad = k.params.filter((p) => p.outOfBound > 0);
    const elements = k.params.reduce((a, p) => a + p.elements, 0);
    const unresolved = k.params.reduce((a, p) => a + p.signUnresolved, 0);
    const zeros = k.params.reduce((a, p) => a + p.zeroGradient, 0);
    const worst = k.params.reduce((a, p) => Math.max(a, p.worstRatio), 0);
    lines.push(`  parameters after step 1: ${elements} elements in ${k.params.length} tensors, worst |Δ|/bound ${worst.toFixed(3)}, ${unresolved} with a gradient within its tolerance of 0 (${zeros} exactly 0: rows no token uses): ${k.paramsOk ? 'ok' : `FAILED in ${bad.length} tensors`}`);
    for (const p of bad.slice(0, 8)) lines.push(`    ${p.param}: ${p.outOfBound} of ${p.elements} out of bound: ${p.failures.join('; ')}`);
  }
  return lines.join('\n');
}
