// Every error the lab raises on bad input has a name that says which kind it is and a message
// that names what was wrong. Names survive the worker boundary (comlink copies name+message).

export class LabError extends Error {
  override name = 'LabError';
}

/** A LabError kind: `class UsageError extends labError('UsageError') {}` — its name set once. */
export function labError(name: string) {
  return class extends LabError {
    override name = name;
  };
}

/** Unknown op, malformed shape or option: the CLI exits 2. */
export class UsageError extends labError('UsageError') {}

/** A schedule that is well-formed but cannot run here: names the knob and the limit. */
export class ScheduleRefusal extends labError('ScheduleRefusal') {}

/** No WebGPU, no adapter, or not the adapter that was asked for. */
export class AdapterError extends labError('AdapterError') {}

/** The WGSL did not compile; the message carries the compiler's lines. */
export class WgslCompileError extends labError('WgslCompileError') {}

/** The device refused something valid WGSL asked for (pipeline creation, a limit, memory). */
export class DeviceRejection extends labError('DeviceRejection') {}

/** The device was lost (driver reset, tab backgrounded too long, destroy()). */
export class DeviceLostError extends labError('DeviceLostError') {}

/** The caller cancelled the run (LabApi.cancel): nothing it measured is kept or stored. */
export class RunCancelled extends labError('RunCancelled') {}

/** A quant format asked for what it cannot hold: unknown name, ragged block, NaN/Inf to encode. */
export class QuantFormatError extends labError('QuantFormatError') {}

/** An output file (--json, --markdown, --export) could not be written after the run: exit 2. */
export class OutputWriteError extends labError('OutputWriteError') {}

/** Error names the CLI treats as usage errors (exit 2). */
export const USAGE_ERROR_NAMES: readonly string[] = ['UsageError', 'GgufError', 'ModelConfigError', 'OpCaseError', 'ScheduleError', 'TensorError', 'AdapterError', 'ScheduleRefusal', 'ShapeContractError', 'ManifestError', 'ManifestRefusal', 'QuantFormatError', 'OutputWriteError', 'GraphTextError', 'CensusSizeError'];
