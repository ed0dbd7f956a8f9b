// ggml's enums as numbers (include/ggml.h at the mirrored commit d99724f2): what the
// test-export-graph-ops text format writes. The numbers move between ggml versions; these
// are the ones test-backend-ops of that commit reads.
export const GGML_OP_NAMES: readonly string[] = Object.freeze(
  ('NONE DUP ADD ADD_ID ADD1 ACC SUB MUL DIV SQR SQRT LOG SIN COS SUM SUM_ROWS CUMSUM MEAN ARGMAX COUNT_EQUAL ' +
    'REPEAT REPEAT_BACK CONCAT SILU_BACK NORM RMS_NORM RMS_NORM_BACK GROUP_NORM L2_NORM MUL_MAT MUL_MAT_ID OUT_PROD ' +
    'SCALE SET CPY CONT RESHAPE VIEW PERMUTE TRANSPOSE GET_ROWS GET_ROWS_BACK SET_ROWS DIAG DIAG_MASK_INF ' +
    'DIAG_MASK_ZERO SOFT_MAX SOFT_MAX_BACK ROPE ROPE_BACK CLAMP CONV_TRANSPOSE_1D IM2COL IM2COL_BACK IM2COL_3D ' +
    'COL2IM_1D CONV_2D CONV_3D CONV_2D_DW CONV_TRANSPOSE_2D POOL_1D POOL_2D POOL_2D_BACK UPSCALE PAD ' +
    'PAD_REFLECT_1D ROLL ARANGE TIMESTEP_EMBEDDING ARGSORT TOP_K LEAKY_RELU TRI FILL FLASH_ATTN_EXT ' +
    'FLASH_ATTN_BACK SSM_CONV SSM_SCAN WIN_PART WIN_UNPART GET_REL_POS ADD_REL_POS RWKV_WKV6 GATED_LINEAR_ATTN ' +
    'RWKV_WKV7 SOLVE_TRI GATED_DELTA_NET LIGHTNING_INDEXER DSV4_HC_COMB DSV4_HC_PRE DSV4_HC_POST UNARY ' +
    'MAP_CUSTOM1 MAP_CUSTOM2 MAP_CUSTOM3 CUSTOM CROSS_ENTROPY_LOSS CROSS_ENTROPY_LOSS_BACK OPT_STEP_ADAMW ' +
    'OPT_STEP_SGD GLU').split(' '),
);

export const GGML_UNARY_NAMES: readonly string[] = Object.freeze('ABS SGN NEG STEP TANH ELU RELU SIGMOID GELU GELU_QUICK SILU HARDSWISH HARDSIGMOID EXP'.split(' '));
export const GGML_GLU_NAMES: readonly string[] = Object.freeze('REGLU GEGLU SWIGLU SWIGLU_OAI GEGLU_ERF GEGLU_QUICK'.split(' '));

/** ggml_type: number → name, elements per block, bytes per block (the types a census meets). */
export const GGML_TYPES: Readonly<Record<number, { name: string; blck: number; bytes: number }>> = Object.freeze({
  0: { name: 'f32', blck: 1, bytes: 4 },
  1: { name: 'f16', blck: 1, bytes: 2 },
  2: { name: 'q4_0', blck: 32, bytes: 18 },
  3: { name: 'q4_1', blck: 32, bytes: 20 },
  6: { name: 'q5_0', blck: 32, bytes: 22 },
  7: { name: 'q5_1', blck: 32, bytes: 24 },
  8: { name: 'q8_0', blck: 32, bytes: 34 },
  9: { name: 'q8_1', blck: 32, bytes: 36 },
  10: { name: 'q2_K', blck: 256, bytes: 84 },
  11: { name: 'q3_K', blck: 256, bytes: 110 },
  12: { name: 'q4_K', blck: 256, bytes: 144 },
  13: { name: 'q5_K', blck: 256, bytes: 176 },
  14: { name: 'q6_K', blck: 256, bytes: 210 },
  15: { name: 'q8_K', blck: 256, bytes: 292 },
  24: { name: 'i8', blck: 1, bytes: 1 },
  25: { name: 'i16', blck: 1, bytes: 2 },
  26: { name: 'i32', blck: 1, bytes: 4 },
  27: { name: 'i64', blck: 1, bytes: 8 },
  28: { name: 'f64', blck: 1, bytes: 8 },
  30: { name: 'bf16', blck: 1, bytes: 2 },
});

export function ggmlTypeId(name: string): number {
  const hit = Object.entries(GGML_TYPES).find(([, t]) => t.name === name);
  if (!hit) throw new Error(`no ggml type named ${name}`);
  return Number(hit[0]);
}

/** ggml_op_desc: the unary or glu op's name for UNARY and GLU, else the op's. */
export function opDesc(op: string, params: readonly number[]): string {
  if (op === 'UNARY') return GGML_UNARY_NAMES[params[0]] ?? `UNARY(${params[0]})`;
  if (op === 'GLU') return GGML_GLU_NAMES[params[0]] ?? `GLU(${params[0]})`;
  return op;
}
