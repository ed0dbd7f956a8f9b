#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ggml.h"
#include "ggml-quants.h"
#include "../src/ggml-common.h"
void ggml_abort(const char * file, int line, const char * fmt, ...) { abort(); }
// reads: type name, n, then n floats (hex bits) from stdin; writes quantized bytes hex then dequantized float bits
int main(int argc, char **argv) {
  int n = atoi(argv[2]); float *x = malloc(n*4), *y = malloc(n*4); unsigned char buf[1<<16]; size_t bs = 0;
  for (int i = 0; i < n; i++) { unsigned u; scanf("%x", &u); memcpy(&x[i], &u, 4); }
  const char *t = argv[1];
#define CASE(name, blk, q, dq) if (!strcmp(t, name)) { q(x, (void*)buf, n); bs = n/32*sizeof(blk); dq((void*)buf, y, n); }
  CASE("q4_0", block_q4_0, quantize_row_q4_0_ref, dequantize_row_q4_0)
  CASE("q4_1", block_q4_1, quantize_row_q4_1_ref, dequantize_row_q4_1)
  CASE("q5_0", block_q5_0, quantize_row_q5_0_ref, dequantize_row_q5_0)
  CASE("q5_1", block_q5_1, quantize_row_q5_1_ref, dequantize_row_q5_1)
  CASE("q8_0", block_q8_0, quantize_row_q8_0_ref, dequantize_row_q8_0)
  CASE("mxfp4", block_mxfp4, quantize_row_mxfp4_ref, dequantize_row_mxfp4)
  for (size_t i = 0; i < bs; i++) printf("%02x", buf[i]); printf("\n");
  for (int i = 0; i < n; i++) { unsigned u; memcpy(&u, &y[i], 4); printf("%08x ", u); } printf("\n");
}
