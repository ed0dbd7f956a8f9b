// The 30 Track-1 formats as data: element × block size × scale kind, all symmetric (no zero-point).
// Group-scaled formats (FP32/FP16 scale) allow a ragged last block per row; the MX formats (OCP MX
// v1.0 fixes k = 32) and nvfp4 (NVIDIA fixes 16) do not.
import { QuantFormatError } from '../errors';
import { ELEMENTS, type ElementCodec, type ElementName } from './element';
import { SCALE_BITS, type ScaleKind } from './scale';

export interface QuantFormat {
  readonly name: string;
  readonly element: ElementName;
  readonly blockSize: number;
  readonly scale: ScaleKind;
  readonly raggedTail: boolean;
}

function fmt(name: string, element: ElementName, blockSize: number, scale: ScaleKind): QuantFormat {
  const raggedTail = scale === 'fp32' || scale === 'fp16';
  return Object.freeze({ name, element, blockSize, scale, raggedTail });
}

const FP32_SCALED: readonly QuantFormat[] = [
  fmt('nvfp8', 'e4m3', 16, 'fp32'),
  fmt('fp4', 'e2m1', 32, 'fp32'),
  fmt('fp8_e4m3', 'e4m3', 32, 'fp32'),
  fmt('fp8_e5m2', 'e5m2', 32, 'fp32'),
  ...([2, 3, 4, 5, 6, 8] as const).map((b) => fmt(`int${b}`, `int${b}` as ElementName, 64, 'fp32')),
];

export const QUANT_FORMATS: readonly QuantFormat[] = Object.freeze([
  fmt('nvfp4', 'e2m1', 16, 'e4m3_fp32_global'),
  fmt('mxfp4', 'e2m1', 32, 'e8m0'),
  fmt('mxfp8_e4m3', 'e4m3', 32, 'e8m0'),
  fmt('mxfp8_e5m2', 'e5m2', 32, 'e8m0'),
  ...FP32_SCALED,
  ...([2, 3, 4, 5, 6, 8] as const).map((b) => fmt(`mxint${b}`, `int${b}` as ElementName, 32, 'e8m0')),
  ...FP32_SCALED.map((f) => fmt(`${f.name}_f16`, f.element, f.blockSize, 'fp16')),
]);

const BY_NAME = new Map(QUANT_FORMATS.map((f) => [f.name, f]));

export function quantFormat(name: string): QuantFormat {
  const f = BY_NAME.get(name);
  if (!f) throw new QuantFormatError(`unknown quant format '${name}' (known: ${QUANT_FORMATS.map((q) => q.name).join(', ')})`);
  return f;
}

export function elementOf(f: QuantFormat): ElementCodec {
  return ELEMENTS[f.element];
}

/** Stored bits per weight for full blocks: element bits plus the block scale spread over the block. */
export function bitsPerWeight(f: QuantFormat): number {
  return ELEMENTS[f.element].bits + SCALE_BITS[f.scale] / f.blockSize;
}
