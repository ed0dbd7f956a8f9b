// The graph run: a training step executed node by node on the GPU with the registry's kernels —
// forward, backward, AdamW — on buffers allocated once (one per storage of the plan: a view is an
// offset and strides into its source's buffer, an in-place result its source's buffer, as ggml
// does). Each node is a Session on those buffers (session.ts's onBuffers) recorded as its own
// timestamped compute pass; a step is one command buffer. Step 1 is checked against the CPU f64
// evaluation of the same graph (graph-step.ts): the loss, then every parameter after AdamW.
import { planFromCase } from '../core/plan/plan';
import { adapterName, type AdapterDescriptor } from '../core/adapter';
import { DeviceRejection, RunCancelled, UsageError } from '../core/errors';
import { GUARD_BYTES, deviceBufferSizeBytes } from '../core/hostdata';
import { nativeKernel, type BindingRole, type KernelSpec } from '../core/kernel';
import { planBytes, planGraph, type GraphPlan, type PlannedNode } from '../core/census/graph-cases';
import { buildTrainingGraph } from '../core/census/graph';
import { GRAPH_RUN_DEFAULT_BUDGET_BYTES, type GraphCheck, type GraphRunRequest, type GraphRunResult, type OpDispatches } from '../core/census/graph-report';
import { adamwHyper, checkParams, cpuStep, gradsOf, initialData, resetForStep, type StepData } from '../core/census/graph-step';
import { presetByName, type ModelConfig } from '../core/census/model-config';
import type { ProgressFn } from '../core/progress';
import { autoState, resolveKernel } from '../core/resolve-kernel';
import emptyWgsl from '../../kernels/calibration/empty.wgsl?raw';
import { assertAlive, deviceAdapter, type GpuContext } from './device';
import { Session } from './session';

export interface GraphRunHooks {
  /** Replaces a node's kernel (a test plants a wrong backward kernel this way); null keeps the registry's. */
  kernelFor?: (pn: PlannedNode, registry: KernelSpec) => KernelSpec | null;
}

/** WebGPU guarantees 4096 timestamp queries per set: two per node. */
const MAX_TIMED_NODES = 2048;

export function graphConfig(req: Pick<GraphRunRequest, 'preset' | 'config'>): ModelConfig {
  if (req.config) return req.config;
  return presetByName(req.preset ?? 'tiny');
}

/**
 * Refuses before any allocation when the run cannot fit: a buffer over the adapter's binding or
 * buffer size, or all of them together over the budget. Names the bytes it needs.
 */
export function refuseOverBudget(config: ModelConfig, adapter: Pick<AdapterDescriptor, 'limits'>, budgetBytes: number): { totalBytes: number; largestBytes: number } {
  const graph = buildTrainingGraph(config);
  const { totalBytes, largestBytes } = planBytes(graph);
  const device = (b: number) => deviceBufferSizeBytes(b);
  const maxBinding = Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
  const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;
  if (device(largestBytes) > maxBinding) throw new UsageError(`census --run ${config.name}: its largest buffer needs ${device(largestBytes)} B (${gib(device(largestBytes))}), over this adapter's maxStorageBufferBindingSize/maxBufferSize of ${maxBinding} B; refused before allocating`);
  if (totalBytes > budgetBytes) throw new UsageError(`census --run ${config.name}: the step needs ${totalBytes} B (${gib(totalBytes)}) of buffers, over the memory budget of ${budgetBytes} B (${gib(budgetBytes)}; --memory-gib raises it); refused before allocating`);
  return { totalBytes, largestBytes };
}

interface NodeRun {
  readonly pn: PlannedNode;
  readonly session: Session;
  readonly variant: 'native' | 'generated';
  readonly fallback: { code: string; reason: string } | null;
}

export async function runGraph(ctx: GpuContext, req: GraphRunRequest, onProgress?: ProgressFn, hooks: GraphRunHooks = {}): Promise<GraphRunResult> {
  if (!Number.isInteger(req.steps) || req.steps < 1 || req.steps > 10000) throw new UsageError(`steps must be an integer in 1..10000, got ${req.steps}`);
  const config = graphConfig(req);
  const adapter = deviceAdapter(ctx);
  refuseOverBudget(config, adapter, req.memoryBudgetBytes ?? GRAPH_RUN_DEFAULT_BUDGET_BYTES);
  const hyper = adamwHyper(req.adamw);
  const plan = planGraph(buildTrainingGraph(config), { adamw: hyper });
  const { device } = ctx;
  const report = (label: string, fraction: number) => onProgress?.({ label, fraction, etaMs: null });

  // buffers, once: [guard | storage | guard], so a kernel's baked offsets (GUARD_BYTES + offset) hold
  assertAlive(ctx);
  const buffers: GPUBuffer[] = [];
  const sessions: NodeRun[] = [];
  let overhead: Session | null = null;
  try {
    for (const s of plan.storages) {
      buffers.push(device.createBuffer({ size: deviceBufferSizeBytes(s.sizeBytes), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC, label: `graph ${s.kind} ${s.owner.name || s.owner.op} #${s.id}` }));
    }
    // pipelines compile in batches of 16 at once (the device compiles them concurrently; generated
    // kernels bake their shapes, so most nodes are a pipeline of their own)
    const COMPILE_BATCH = 16;
    for (let i = 0; i < plan.nodes.length; i += COMPILE_BATCH) {
      assertAlive(ctx);
      report(`compiling nodes ${i + 1}–${Math.min(plan.nodes.length, i + COMPILE_BATCH)} of ${plan.nodes.length}`, (0.3 * i) / plan.nodes.length);
      const batch = plan.nodes.slice(i, i + COMPILE_BATCH).map(async (pn): Promise<NodeRun> => {
        const r = resolveKernel(planFromCase(pn.op, pn.c), { kind: req.variant }, adapter);
        const kernel = hooks.kernelFor?.(pn, r.kernel) ?? r.kernel;
        const bound = new Map<BindingRole, GPUBuffer>();
        pn.srcStorages.forEach((s, j) => bound.set(`src${j}` as BindingRole, buffers[s.id]));
        bound.set('dst', buffers[pn.dstStorage.id]);
        if (pn.c.inplace) bound.delete('src0');
        return { pn, session: await Session.onBuffers(ctx, kernel, bound), variant: r.variant, fallback: r.fallback };
      });
      const settled = await Promise.allSettled(batch);
      for (const s of settled) if (s.status === 'fulfilled') sessions.push(s.value);
      const failed = settled.find((s) => s.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    }
    if (ctx.hasTimestamps) overhead = await Session.onBuffers(ctx, nativeKernel('calibration/empty.wgsl', emptyWgsl, ['dst'], [1, 1, 1]), new Map([['dst', buffers[0]]]));

    const init = initialData(plan, req.seed);
    const upload = (data: StepData) => plan.storages.forEach((s) => device.queue.writeBuffer(buffers[s.id], GUARD_BYTES, data.buffers[s.id]));
    upload(init);
    // the CPU's copy starts from the same bytes
    const cpu: StepData | null = req.check ? { buffers: init.buffers.map((b) => b.slice(0)) } : null;

    const losses: number[] = [];
    const stepNs: number[] = [];
    const nodeNs: number[][] = sessions.map(() => []);
    const timed = ctx.hasTimestamps && sessions.length <= MAX_TIMED_NODES;
    const querySet = timed ? device.createQuerySet({ type: 'timestamp', count: 2 * sessions.length }) : null;
    const resolve = timed ? device.createBuffer({ size: 16 * sessions.length, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }) : null;
    const lossPl = plan.placement.get(plan.loss)!;
    let check: GraphCheck | null = null;
    try {
      for (let step = 1; step <= req.steps; step++) {
        assertAlive(ctx);
        report(`step ${step} of ${req.steps}`, 0.3 + (0.7 * (step - 1)) / req.steps);
        // what ggml-opt does between steps: accumulators to zero, the loss gradient 1, AdamW's floats for this iteration
        const hostStep: StepData = { buffers: plan.storages.map((s) => (s.kind === 'adamw-params' || s.kind === 'grad-acc' ? new ArrayBuffer(s.sizeBytes) : new ArrayBuffer(0))) };
        resetForStep(plan, hostStep, hyper, step);
        for (const s of plan.storages) if (s.kind === 'adamw-params' || s.kind === 'grad-acc') device.queue.writeBuffer(buffers[s.id], GUARD_BYTES, hostStep.buffers[s.id]);
        const encoder = device.createCommandEncoder();
        sessions.forEach((n, i) => n.session.encodeInto(encoder, querySet ? { querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 } : undefined));
        const read = device.createBuffer({ size: 16 + (resolve ? resolve.size : 0), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
        encoder.copyBufferToBuffer(buffers[lossPl.storage.id], GUARD_BYTES + lossPl.offsetBytes, read, 0, 4);
        if (querySet && resolve) {
          encoder.resolveQuerySet(querySet, 0, 2 * sessions.length, resolve, 0);
          encoder.copyBufferToBuffer(resolve, 0, read, 16, resolve.size);
        }
        device.queue.submit([encoder.finish()]);
        await read.mapAsync(GPUMapMode.READ);
        const bytes = read.getMappedRange().slice(0);
        read.destroy();
        ctx.lastGpuBusyMs = performance.now();
        losses.push(new DataView(bytes).getFloat32(0, true));
        if (querySet) {
          const ts = new BigUint64Array(bytes, 16, 2 * sessions.length);
          let total = 0;
          sessions.forEach((_, i) => {
            const ns = Number(ts[2 * i + 1] - ts[2 * i]);
            nodeNs[i].push(ns);
            total += ns;
          });
          stepNs.push(total);
        }
        if (step === 1 && cpu) {
          report('checking step 1 against the CPU f64 evaluation', 0.3);
          check = await checkStep1(ctx, plan, buffers, cpu, hyper, losses[0]);
        }
      }
    } finally {
      querySet?.destroy();
      resolve?.destroy();
    }
    const perNodeOverheadNs = overhead ? await emptyPassNs(ctx, overhead) : null;
    return {
      kind: 'graph-run',
      config,
      adapterName: adapterName(ctx.adapter),
      variant: req.variant,
      computeNodes: sessions.length,
      allocatedBytes: plan.totalBytes,
      losses,
      stepNs,
      perNodeOverheadNs,
      perOp: dispatchTable(sessions, nodeNs, adapter),
      check,
    };
  } catch (e) {
    if (e instanceof RunCancelled) throw e;
    throw e instanceof Error && !(e instanceof DeviceRejection) && e.name === 'GPUValidationError' ? new DeviceRejection(e.message) : e;
  } finally {
    sessions.forEach((n) => n.session.destroy());
    overhead?.destroy();
    buffers.forEach((b) => b.destroy());
  }
}

/** Reads the loss and the parameter states back, runs the CPU step, compares. */
async function checkStep1(ctx: GpuContext, plan: GraphPlan, buffers: readonly GPUBuffer[], cpu: StepData, hyper: Readonly<Record<string, number>>, gpuLoss: number): Promise<GraphCheck> {
  const wanted = plan.storages.filter((s) => s.kind === 'param-state');
  const gpu: ArrayBuffer[] = plan.storages.map(() => new ArrayBuffer(0));
  const { device } = ctx;
  for (const s of wanted) {
    const read = device.createBuffer({ size: Math.ceil(s.sizeBytes / 4) * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(buffers[s.id], GUARD_BYTES, read, 0, read.size);
    device.queue.submit([enc.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    gpu[s.id] = read.getMappedRange().slice(0);
    read.destroy();
  }
  const { loss: cpuLoss, lossBound } = cpuStep(plan, cpu, hyper, 1);
  const params = checkParams(plan, gpu, cpu.buffers, gradsOf(plan, cpu.buffers), hyper);
  const lossOk = Math.abs(gpuLoss - cpuLoss) <= lossBound;
  const paramsOk = params.every((p) => p.outOfBound === 0);
  return { cpuLoss, gpuLoss, lossBound, lossOk, params, paramsOk, ok: lossOk && paramsOk };
}

/** Median span of an empty timestamped pass: the part of each node's time that is not its kernel. */
async function emptyPassNs(ctx: GpuContext, s: Session): Promise<number> {
  const n = 64;
  const { device } = ctx;
  const querySet = device.createQuerySet({ type: 'timestamp', count: 2 * n });
  const resolve = device.createBuffer({ size: 16 * n, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: 16 * n, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  try {
    const enc = device.createCommandEncoder();
    for (let i = 0; i < n; i++) s.encodeInto(enc, { querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 });
    enc.resolveQuerySet(querySet, 0, 2 * n, resolve, 0);
    enc.copyBufferToBuffer(resolve, 0, read, 0, 16 * n);
    device.queue.submit([enc.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    const ts = new BigUint64Array(read.getMappedRange().slice(0));
    const spans = Array.from({ length: n }, (_, i) => Number(ts[2 * i + 1] - ts[2 * i])).sort((a, b) => a - b);
    return spans[n >> 1];
  } finally {
    querySet.destroy();
    resolve.destroy();
    read.destroy();
  }
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : 0;
};

function dispatchTable(sessions: readonly NodeRun[], nodeNs: readonly number[][], adapter: Parameters<typeof autoState>[1]): OpDispatches[] {
  const byOp = new Map<string, { nodes: number; generated: number; native: number; fallbacks: Map<string, { code: string; reason: string; count: number }>; ns: number[] | null }>();
  sessions.forEach((n, i) => {
    const op = n.pn.node.desc;
    let r = byOp.get(op);
    if (!r) byOp.set(op, (r = { nodes: 0, generated: 0, native: 0, fallbacks: new Map(), ns: nodeNs[i].length ? [] : null }));
    r.nodes++;
    if (n.variant === 'generated') r.generated++;
    else r.native++;
    // a state that runs native (native-only) is not a fallback; a contract rejection or no rule is
    if (n.fallback && n.fallback.code !== 'native-only' && n.fallback.code !== 'retired') {
      const f = r.fallbacks.get(n.fallback.code) ?? { code: n.fallback.code, reason: n.fallback.reason, count: 0 };
      f.count++;
      r.fallbacks.set(n.fallback.code, f);
    }
    if (r.ns) {
      // per step: this node's span added to its op's total for that step
      nodeNs[i].forEach((ns, step) => (r!.ns![step] = (r!.ns![step] ?? 0) + ns));
    }
  });
  return [...byOp.entries()].map(([op, r]) => ({
    op,
    nodes: r.nodes,
    generated: r.generated,
    native: r.native,
    fallbacks: [...r.fallbacks.values()],
    stepNs: r.ns ? median(r.ns) : null,
    state: autoState(sessions.find((n) => n.pn.node.desc === op)!.pn.op.name, adapter),
  }));
}
