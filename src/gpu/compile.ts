// WGSL → compute pipeline, with the compiler's messages (line and column, the source line)
// turned into a WgslCompileError and any device refusal into a DeviceRejection.
import { DeviceRejection, WgslCompileError } from '../core/errors';
import type { PassBinding, PassSpec } from '../core/program';
import { assertAlive, type GpuContext } from './device';

export function formatCompilationMessages(wgsl: string, messages: readonly Pick<GPUCompilationMessage, 'type' | 'lineNum' | 'linePos' | 'message'>[]): string {
  const lines = wgsl.split('\n');
  return messages
    .map((m) => {
      const src = m.lineNum > 0 ? lines[m.lineNum - 1] ?? '' : '';
      const caret = m.linePos > 0 ? ' '.repeat(m.linePos - 1) + '^' : '';
      return `${m.type} at line ${m.lineNum}:${m.linePos}: ${m.message}${src ? `\n  ${src}\n  ${caret}` : ''}`;
    })
    .join('\n');
}

async function withErrorScopes<T>(device: GPUDevice, what: string, fn: () => Promise<T> | T): Promise<T> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('internal');
  device.pushErrorScope('validation');
  let value: T | undefined;
  let thrown: unknown = null;
  try {
    value = await fn();
  } catch (e) {
    thrown = e;
  }
  const validation = await device.popErrorScope();
  const internal = await device.popErrorScope();
  const oom = await device.popErrorScope();
  const err = validation ?? internal ?? oom;
  if (err) throw new DeviceRejection(`${what}: ${err.message}`);
  if (thrown) throw thrown instanceof Error ? new DeviceRejection(`${what}: ${thrown.message}`) : thrown;
  return value as T;
}

/** Bind group layout entries from a pass's bindings (a user kernel's layout is its manifest's). */
function layoutEntries(pass: PassSpec): GPUBindGroupLayoutEntry[] {
  const type = (a: PassBinding['access']): GPUBufferBindingType => (a === 'uniform' ? 'uniform' : a === 'read' ? 'read-only-storage' : 'storage');
  return pass.bindings.map((b) => ({ binding: b.binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: type(b.access) } }));
}

/** Compiles (or reuses) the pipeline for a pass; `explicitLayout` builds its layout from the bindings. */
export function pipelineFor(ctx: GpuContext, kernel: PassSpec, explicitLayout = false): Promise<GPUComputePipeline> {
  assertAlive(ctx);
  const key = `${kernel.entryPoint}\n${explicitLayout ? JSON.stringify(kernel.bindings) : 'auto'}\n${JSON.stringify(kernel.constants ?? {})}\n${kernel.wgsl}`;
  let p = ctx.pipelines.get(key);
  if (!p) {
    p = compile(ctx, kernel, explicitLayout);
    ctx.pipelines.set(key, p);
    // A failed compile is not cached: the next try gets the same error afresh.
    p.catch(() => ctx.pipelines.delete(key));
    if (ctx.pipelines.size > 256) ctx.pipelines.delete(ctx.pipelines.keys().next().value as string);
  }
  return p;
}

async function compile(ctx: GpuContext, kernel: PassSpec, explicitLayout: boolean): Promise<GPUComputePipeline> {
  const { device } = ctx;
  for (const f of kernel.features ?? []) {
    if (!device.features.has(f)) throw new DeviceRejection(`${kernel.label} needs the '${f}' feature, which this device lacks`);
  }
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code: kernel.wgsl, label: kernel.label });
  const info = await module.getCompilationInfo();
  await device.popErrorScope(); // the compile errors are reported below, with their lines
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length) throw new WgslCompileError(`${kernel.label} does not compile:\n${formatCompilationMessages(kernel.wgsl, errors)}`);
  return withErrorScopes(device, `pipeline for ${kernel.label} was refused`, () => {
    const layout = explicitLayout
      ? device.createPipelineLayout({ bindGroupLayouts: [device.createBindGroupLayout({ entries: layoutEntries(kernel), label: kernel.label })], label: kernel.label })
      : 'auto';
    const constants = kernel.constants && Object.keys(kernel.constants).length ? { constants: { ...kernel.constants } } : {};
    return device.createComputePipelineAsync({ layout, compute: { module, entryPoint: kernel.entryPoint, ...constants }, label: kernel.label });
  });
}

export { withErrorScopes };
